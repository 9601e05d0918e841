; Scopes, definitions and references, for Helix and Neovim. The suffix of a
; definition capture names the highlight Helix gives its references; Neovim
; reads it as the kind of definition.

[
  (source_file)
  (block)
  (function_declaration)
  (lambda)
  (for_expression)
] @local.scope

(use_declaration
  path: (module_path (identifier) @local.definition.namespace .))

(let_declaration name: (identifier) @local.definition.variable)

(function_declaration name: (identifier) @local.definition.function)

(parameters (identifier) @local.definition.variable.parameter)
(lambda_parameters (identifier) @local.definition.variable.parameter)

(for_expression binding: (identifier) @local.definition.variable)

(identifier) @local.reference
