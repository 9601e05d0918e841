; Indentation. Each node carries Helix's capture (`@indent`, `@outdent`) and
; nvim-treesitter's (`@indent.begin`, `@indent.branch`, `@indent.end`); each
; editor ignores the other's names.

[
  (block)
  (record)
  (array)
  (arguments)
  (parameters)
] @indent @indent.begin

[
  "}"
  "]"
  ")"
] @outdent @indent.branch @indent.end

(comment) @indent.auto
