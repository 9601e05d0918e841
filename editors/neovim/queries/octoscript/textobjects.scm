; Text objects: Helix uses `.inside` / `.around`, nvim-treesitter-textobjects
; `.inner` / `.outer`; each editor ignores the other's names.

(function_declaration
  body: (block) @function.inside @function.inner) @function.around @function.outer

(lambda
  body: (_) @function.inside @function.inner) @function.around @function.outer

(parameters
  (identifier) @parameter.inside @parameter.inner @parameter.around @parameter.outer)

(lambda_parameters
  (identifier) @parameter.inside @parameter.inner @parameter.around @parameter.outer)

(arguments
  (_) @parameter.inside @parameter.inner @parameter.around @parameter.outer)

(comment) @comment.inside @comment.inner

(comment)+ @comment.around @comment.outer
