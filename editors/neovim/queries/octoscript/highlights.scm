; Octoscript highlights for Helix and Neovim.
;
; Both editors let a later pattern override an earlier one on the same node,
; so general patterns come first. Capture names follow Helix's theme scopes;
; Neovim resolves a dotted name it has no group for through its prefixes
; (`@keyword.control.conditional` -> `@keyword.control` -> `@keyword`,
; `@constant.numeric.integer` -> `@constant`).

(identifier) @variable

; Declarations and uses ---------------------------------------------------

(parameters (identifier) @variable.parameter)
(lambda_parameters (identifier) @variable.parameter)

(module_path "mod" @namespace)
(module_path (identifier) @namespace)

(record_field key: (identifier) @variable.other.member)
(member_expression property: (identifier) @variable.other.member)

(function_declaration name: (identifier) @function)
(let_declaration
  name: (identifier) @function
  value: (lambda))

(call_expression function: (identifier) @function)
(call_expression
  function: (member_expression property: (identifier) @function.method))

; `.await()` is an ordinary member call in the grammar, but it reads as a
; keyword.
(call_expression
  function: (member_expression
    property: (identifier) @keyword.coroutine)
  (#eq? @keyword.coroutine "await"))

; Literals --------------------------------------------------------------------

(string) @string
(escape_sequence) @constant.character.escape

((number) @constant.numeric.integer
  (#match? @constant.numeric.integer "^[0-9]+$"))
((number) @constant.numeric.float
  (#match? @constant.numeric.float "[.eE]"))

[(true) (false)] @constant.builtin.boolean
(nil) @constant.builtin

(comment) @comment

; Keywords --------------------------------------------------------------------

["if" "elif" "else"] @keyword.control.conditional
["for" "in" "loop" "while"] @keyword.control.repeat
"return" @keyword.control.return
[(break_statement) (continue_statement)] @keyword.control
["try" "catch"] @keyword.control.exception
"use" @keyword.control.import
"fn" @keyword.function
"let" @keyword.storage

; Operators and punctuation ---------------------------------------------------

[
  "=" "+=" "-=" "*=" "/=" "%="
  "||" "&&" "==" "!=" "<" "<=" ">" ">="
  "+" "-" "*" "/" "%" "!" "~"
] @operator

(lambda ["|" "||"] @punctuation.bracket)

["(" ")" "[" "]" "{" "}"] @punctuation.bracket
["," ";" "." ":"] @punctuation.delimiter
