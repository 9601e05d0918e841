/**
 * Tree-sitter grammar for Octoscript, canonical grammar v0.2
 * (grammar/octoscript.ebnf is the normative description; the checker in
 * octoscript_lsp/syntax/ decides validity).
 *
 * Newlines are real tokens, not extras, because they end statements and
 * separate record members. The grammar is deliberately a little more lenient
 * than the checker (reserved compatibility words parse as identifiers, the
 * last statement of a block may omit its terminator, operator runs such as
 * `=-` split into two operators) so editors keep a useful tree while the user
 * types; every program the checker accepts parses without ERROR nodes.
 */

// Keep the operator lists in step with octoscript_lsp/syntax/tokens.py;
// tests/grammar/test_word_lists.py compares them with the EBNF, the TextMate
// grammar and the lexer.
const ASSIGNMENT_OPERATORS = ['=', '+=', '-=', '*=', '/=', '%='];
const UNARY_OPERATORS = ['!', '-', '+', '~'];

const PREC = {
  lambda: -1,
  control: 0,
  assign: 1,
  or: 2,
  and: 3,
  equality: 4,
  comparison: 5,
  additive: 6,
  multiplicative: 7,
  unary: 8,
  postfix: 9,
  block: 10,
};

const BINARY_OPERATORS = [
  ['||', PREC.or],
  ['&&', PREC.and],
  ['==', PREC.equality],
  ['!=', PREC.equality],
  ['<', PREC.comparison],
  ['<=', PREC.comparison],
  ['>', PREC.comparison],
  ['>=', PREC.comparison],
  ['+', PREC.additive],
  ['-', PREC.additive],
  ['*', PREC.multiplicative],
  ['/', PREC.multiplicative],
  ['%', PREC.multiplicative],
];

function commaSep1(rule) {
  return seq(rule, repeat(seq(',', rule)));
}

function commaSep(rule) {
  return optional(commaSep1(rule));
}

module.exports = grammar({
  name: 'octoscript',

  extras: $ => [/[ \t\f]/, $.comment],

  word: $ => $.identifier,

  rules: {
    source_file: $ => seq(
      repeat(choice(seq($._statement, $._terminator), $._terminator)),
      optional($._statement),
    ),

    _terminator: $ => prec(PREC.block, choice(';', $._line_break)),

    // The checker counts the line breaks inside a block comment as newline
    // tokens, so a block comment spanning lines ends a statement (or
    // separates record members) like a line break does. Where a line break
    // may stand, such a comment is lexed as one (it still shows as `comment`).
    _line_break: $ => choice($._newline, alias($._multiline_comment, $.comment)),

    _newline: _ => /\r?\n/,

    _multiline_comment: _ => token(prec(1, seq(
      '/*',
      /([^*\r\n]|\*[^/\r\n])*/,
      /\r?\n|\*\r?\n/,
      /([^*]|\*[^/])*/,
      '*/',
    ))),

    // ------------------------------------------------------------ statements

    _statement: $ => choice(
      $.use_declaration,
      $.let_declaration,
      $.function_declaration,
      $.return_statement,
      $.break_statement,
      $.continue_statement,
      $._expression,
    ),

    use_declaration: $ => seq('use', field('path', $.module_path)),

    module_path: $ => seq('mod', repeat1(seq('.', $.identifier))),

    let_declaration: $ => seq(
      'let',
      field('name', $.identifier),
      optional(seq('=', field('value', $._expression))),
    ),

    function_declaration: $ => seq(
      'fn',
      field('name', $.identifier),
      field('parameters', $.parameters),
      field('body', $.block),
    ),

    parameters: $ => seq('(', commaSep($.identifier), ')'),

    return_statement: $ => prec.right(seq('return', optional($._expression))),

    break_statement: _ => 'break',

    continue_statement: _ => 'continue',

    // After if/elif/else, try/catch and a lambda head a `{` always opens a
    // block (the checker never reads a record there); the precedence here and
    // on `_terminator` settles `{ }` and `{ <newlines> }` in its favour.
    block: $ => prec(PREC.block, seq(
      '{',
      repeat(choice(seq($._statement, $._terminator), $._terminator)),
      optional($._statement),
      '}',
    )),

    // ------------------------------------------------------------ expressions

    _expression: $ => choice(
      $.if_expression,
      $.try_expression,
      $.for_expression,
      $.loop_expression,
      $.while_expression,
      $._assignment,
    ),

    // A branch, a try value or a lambda body: a `{` here opens a block.
    _body: $ => choice($.block, $._expression),

    if_expression: $ => prec.right(PREC.control, seq(
      'if',
      field('condition', $._condition),
      field('consequence', $._body),
      repeat(field('alternative', $.elif_clause)),
      optional(field('alternative', $.else_clause)),
    )),

    elif_clause: $ => prec.right(PREC.control, seq(
      'elif',
      field('condition', $._condition),
      field('consequence', $._body),
    )),

    else_clause: $ => prec.right(PREC.control, seq('else', field('body', $._body))),

    try_expression: $ => prec.right(PREC.control, seq(
      'try',
      field('body', $._body),
      'catch',
      field('handler', $._body),
    )),

    for_expression: $ => seq(
      'for',
      field('binding', $.identifier),
      optional(seq(',', field('binding', $.identifier),
        optional(seq(',', field('binding', $.identifier))))),
      'in',
      field('iterable', $._condition),
      field('body', $.block),
    ),

    loop_expression: $ => seq('loop', field('body', $.block)),

    while_expression: $ => seq(
      'while',
      field('condition', $._condition),
      field('body', $.block),
    ),

    // Conditions and iterables are assignment-level expressions; the checker
    // wants a control expression or lambda there parenthesized.
    _condition: $ => $._assignment,

    _assignment: $ => choice($.assignment_expression, $._binary),

    assignment_expression: $ => prec.right(PREC.assign, seq(
      field('left', $._binary),
      field('operator', choice(...ASSIGNMENT_OPERATORS)),
      field('right', $._assignment),
    )),

    _binary: $ => choice($.binary_expression, $._unary),

    binary_expression: $ => choice(...BINARY_OPERATORS.map(([operator, precedence]) =>
      prec.left(precedence, seq(
        field('left', $._binary),
        field('operator', operator),
        field('right', $._binary),
      )),
    )),

    _unary: $ => choice($.unary_expression, $._postfix),

    unary_expression: $ => prec(PREC.unary, seq(
      field('operator', choice(...UNARY_OPERATORS)),
      field('operand', $._postfix),
    )),

    _postfix: $ => choice(
      $.call_expression,
      $.member_expression,
      $.index_expression,
      $._primary,
    ),

    call_expression: $ => prec(PREC.postfix, seq(
      field('function', $._postfix),
      field('arguments', $.arguments),
    )),

    arguments: $ => seq('(', commaSep($._expression), ')'),

    member_expression: $ => prec(PREC.postfix, seq(
      field('object', $._postfix),
      '.',
      field('property', $.identifier),
    )),

    index_expression: $ => prec(PREC.postfix, seq(
      field('object', $._postfix),
      '[',
      field('index', $._expression),
      ']',
    )),

    _primary: $ => choice(
      $.number,
      $.string,
      $.true,
      $.false,
      $.nil,
      $.identifier,
      $.array,
      $.record,
      $.parenthesized_expression,
      $.lambda,
    ),

    parenthesized_expression: $ => seq('(', $._expression, ')'),

    array: $ => seq('[', commaSep($._expression), ']'),

    // Members are separated by a comma (optionally followed by newlines) or
    // by newlines alone.
    record: $ => seq(
      '{',
      repeat($._line_break),
      optional(seq(
        $.record_field,
        repeat(seq(choice(seq(',', repeat($._line_break)), repeat1($._line_break)), $.record_field)),
        repeat($._line_break),
      )),
      '}',
    ),

    record_field: $ => seq(
      field('key', $.identifier),
      ':',
      field('value', $._expression),
    ),

    lambda: $ => prec.right(PREC.lambda, seq(
      choice(
        '||',
        seq('|', field('parameters', $.lambda_parameters), '|'),
      ),
      field('body', $._body),
    )),

    lambda_parameters: $ => commaSep1($.identifier),

    // ------------------------------------------------------------ tokens

    identifier: _ => /[A-Za-z_][A-Za-z0-9_]*/,

    number: _ => token(seq(
      /[0-9]+/,
      optional(/\.[0-9]+/),
      optional(/[eE][+-]?[0-9]+/),
    )),

    string: $ => seq(
      '"',
      repeat(choice($.string_content, $.escape_sequence)),
      token.immediate('"'),
    ),

    string_content: _ => token.immediate(prec(1, /[^"\\\r\n]+/)),

    escape_sequence: _ => token.immediate(seq(
      '\\',
      choice(/["\\nrt]/, /u[0-9A-Fa-f]{4}/, /u\{[0-9A-Fa-f]{1,6}\}/),
    )),

    true: _ => 'true',
    false: _ => 'false',
    nil: _ => 'nil',

    // Block comments do not nest, and a `*` not followed by `/` also hides
    // the next character, so `**/` does not close one (as in the checker).
    comment: _ => token(choice(
      seq('//', /[^\r\n]*/),
      seq('/*', /([^*]|\*[^/])*/, '*/'),
    )),
  },
});
