;;; octoscript-mode.el --- Octoscript major modes for eglot and lsp-mode -*- lexical-binding: t -*-

;; Copyright (C) 2025 The octoscript-lsp authors

;; Author: The octoscript-lsp authors
;; Maintainer: The octoscript-lsp authors
;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: languages

;; This file is not part of GNU Emacs.

;; SPDX-License-Identifier: MIT

;;; Commentary:

;; `octoscript-mode' edits Octoscript (*.octoscript, *.octo): syntax
;; table for strings and `//' / `/* */' comments, regexp font-lock for
;; keywords, literals, function names and `use mod.' paths, and
;; indentation that matches `octoscript format' (four spaces per open
;; brace, and only braces).
;;
;; On Emacs 29 and later with the tree-sitter grammar of this repository
;; (grammar/tree-sitter-octoscript) installed, `octoscript-ts-mode'
;; highlights from the syntax tree instead.  Use it for every Octoscript
;; file with:
;;
;;   (add-to-list 'major-mode-remap-alist '(octoscript-mode . octoscript-ts-mode))
;;
;; Both modes are registered with eglot and with lsp-mode, either of
;; which runs the `octoscript-lsp' language server (see
;; `octoscript-lsp-program'):
;;
;;   (add-hook 'octoscript-mode-hook #'eglot-ensure)
;;
;; or
;;
;;   (add-hook 'octoscript-mode-hook #'lsp-deferred)
;;
;; Catalogs for completion and hover go to the server at start-up through
;; `octoscript-catalogs' (the `initializationOptions') or as settings of
;; the `octoscript' section: under eglot in `eglot-workspace-configuration',
;; under lsp-mode through `lsp-register-custom-settings'.  See
;; editors/emacs/README.md.

;;; Code:

(require 'cl-lib)

(defgroup octoscript nil
  "Editing Octoscript, the host-embedded scripting language."
  :group 'languages
  :prefix "octoscript-")

(defcustom octoscript-indent-offset 4
  "Columns per level of brace nesting.
`octoscript format' always indents by four spaces, so other values
make the indentation differ from the formatter's."
  :type 'integer
  :safe #'integerp)

(defcustom octoscript-lsp-program "octoscript-lsp"
  "Program that runs the Octoscript language server.
A command name, looked up in the variable `exec-path', or a file name."
  :type 'string
  :risky t)

(defcustom octoscript-lsp-arguments nil
  "Extra command line arguments for `octoscript-lsp-program'."
  :type '(repeat string)
  :risky t)

(defcustom octoscript-catalogs nil
  "Catalogs sent to the server as `initializationOptions.octoscript'.
A property list with any of the keys `:toolCatalog',
`:moduleCatalog', `:workflowDataCatalog' and
`:workflowDataStepContext', each in the JSON shape docs/editors.md
describes, written as eglot writes JSON: objects as property lists,
arrays as vectors, and `:json-false' for false.  For example:

  (setq octoscript-catalogs
        \\='(:toolCatalog [(:name \"text.echo\" :format \"text\"
                          :description \"Echo the input text.\")]))

Leave a key out rather than giving it nil: nil is sent as JSON null,
which marks that catalog unavailable.  The server takes these when it
starts; to change catalogs in a running session, change the settings
\(`eglot-workspace-configuration' under eglot, the `octoscript.'
settings of `lsp-register-custom-settings' under lsp-mode) and call
`octoscript-send-settings'."
  :type 'plist)

(defface octoscript-function-call
  '((t :inherit font-lock-function-name-face))
  "Face for the name of a called function.")

(defconst octoscript-keywords
  '("if" "elif" "else" "try" "catch" "for" "in" "loop" "while"
    "fn" "let" "return" "break" "continue" "use")
  "Octoscript keywords (`catch' is one only after a `try' branch).")

(defconst octoscript-constants '("true" "false" "nil")
  "Octoscript's literal words.")

(defconst octoscript-reserved-words
  '("var" "match" "ok" "do" "and" "or" "is" "mut" "me" "scope")
  "Words canonical Octoscript rejects; highlighted as warnings.")

(defconst octoscript--identifier "[A-Za-z_][A-Za-z0-9_]*"
  "An identifier.")

(defvar octoscript-mode-syntax-table
  (let ((table (make-syntax-table)))
    ;; `//' comments are style b, `/* */' comments style a.
    (modify-syntax-entry ?/ ". 124b" table)
    (modify-syntax-entry ?* ". 23" table)
    (modify-syntax-entry ?\n "> b" table)
    (modify-syntax-entry ?\" "\"" table)
    (modify-syntax-entry ?\\ "\\" table)
    (modify-syntax-entry ?' "." table)
    (modify-syntax-entry ?_ "_" table)
    (dolist (char (string-to-list "+-=<>!&|%~^?:@.,;"))
      (modify-syntax-entry char "." table))
    table)
  "Syntax table for `octoscript-mode' and `octoscript-ts-mode'.")

(defconst octoscript--font-lock-keywords
  (let ((id octoscript--identifier))
    `(;; `use mod.a.b': the whole module path.
      (,(concat "\\_<use\\_>[ \t]+\\(mod\\(?:[ \t]*\\.[ \t]*" id "\\)*\\)")
       1 font-lock-constant-face)
      (,(regexp-opt octoscript-keywords 'symbols) . font-lock-keyword-face)
      (,(regexp-opt octoscript-constants 'symbols) . font-lock-constant-face)
      (,(regexp-opt octoscript-reserved-words 'symbols)
       . font-lock-warning-face)
      ;; `fn name(' and `let name = |...|' / `let name = ||' declare functions.
      (,(concat "\\_<fn[ \t]+\\(" id "\\)") 1 font-lock-function-name-face)
      (,(concat "\\_<let[ \t]+\\(" id "\\)[ \t]*=[ \t]*|")
       1 font-lock-function-name-face)
      (,(concat "\\_<let[ \t]+\\(" id "\\)") 1 font-lock-variable-name-face)
      ;; `tool.call(...)' and its siblings: the host's fixed tool surface.
      ("\\_<\\(tool\\)[ \t]*\\.[ \t]*\\(?:call\\|start\\)\\(?:_json\\)?[ \t]*("
       1 font-lock-builtin-face)
      ;; `.await()' reads as a keyword.
      ("\\.[ \t]*\\(await\\)[ \t]*([ \t]*)" 1 font-lock-keyword-face)
      ;; Parameters of `fn name(a, b)' and of lambdas `|a, b|'.
      (,(concat "\\_<fn[ \t]+" id "[ \t]*(")
       (,id (octoscript--parameter-list-end) nil
            (0 font-lock-variable-name-face)))
      (,(concat "\\(?:^\\|[^|]\\)|\\([ \t]*" id
                "\\(?:[ \t]*,[ \t]*" id "\\)*[ \t]*\\)|")
       (,id (progn (goto-char (match-beginning 1)) (match-end 1)) nil
            (0 font-lock-variable-name-face)))
      ;; Calls: a name right before `('.
      (,(concat "\\(" id "\\)[ \t]*(") 1 'octoscript-function-call)
      ;; Numbers: integers, decimals and exponents.
      ("\\_<[0-9]+\\(?:\\.[0-9]+\\)?\\(?:[eE][-+]?[0-9]+\\)?\\_>"
       . font-lock-constant-face)))
  "Regexp highlighting for `octoscript-mode'.
Earlier rules win: a name already coloured keeps its face.")

(defun octoscript--parameter-list-end ()
  "End of the parameter list whose `(' is just before point.
Used as the pre-match form of an anchored font-lock rule: the
parameters are searched up to there, and at most to the end of
the line (an unclosed list while typing must not reach further)."
  (let ((line-end (line-end-position)))
    (save-excursion
      (min line-end
           (or (ignore-errors (backward-char) (forward-sexp) (point))
               line-end)))))

;;; Indentation

(defun octoscript--brace-depth (ppss)
  "Number of `{' that enclose the position PPSS describes.
Parentheses and brackets do not count: the formatter indents by
braces only."
  (cl-count-if (lambda (open) (eq (char-after open) ?\{)) (nth 9 ppss)))

(defun octoscript-indent-level ()
  "The column the formatter gives the current line, or nil to keep it.
Every line, the lines of a block comment too, is indented by the
braces open at its start; one that starts with a `}' goes one
level out.  A line inside a string (only an unterminated one can
run on) is left alone."
  (save-excursion
    (beginning-of-line)
    (let ((ppss (syntax-ppss)))
      (unless (nth 3 ppss)
        (let ((depth (octoscript--brace-depth ppss)))
          (skip-chars-forward " \t\f")
          (when (and (not (nth 4 ppss)) (eq (char-after) ?\}) (> depth 0))
            (setq depth (1- depth)))
          (* depth octoscript-indent-offset))))))

(defun octoscript-indent-line ()
  "Indent the current line as `octoscript format' would."
  (interactive)
  (let ((column (octoscript-indent-level)))
    (if (null column)
        'noindent
      (if (> (current-column) (current-indentation))
          (save-excursion (indent-line-to column))
        (indent-line-to column)))))

(defun octoscript--common-setup ()
  "Settings both Octoscript modes share."
  (setq-local comment-start "// ")
  (setq-local comment-end "")
  (setq-local comment-start-skip "\\(?://+\\|/\\*+\\)[ \t]*")
  (setq-local comment-end-skip "[ \t]*\\(?:\\*+/\\)?")
  (setq-local indent-tabs-mode nil)
  (setq-local tab-width octoscript-indent-offset)
  (setq-local indent-line-function #'octoscript-indent-line)
  (setq-local electric-indent-chars (append "{}" electric-indent-chars))
  (setq-local imenu-generic-expression
              `((nil ,(concat "^[ \t]*fn[ \t]+\\(" octoscript--identifier "\\)")
                     1))))

;;;###autoload
(define-derived-mode octoscript-mode prog-mode "Octoscript"
  "Major mode for editing Octoscript.

Indentation follows `octoscript format'; `octoscript-lsp' (through
eglot or lsp-mode, see `octoscript-lsp-program') provides diagnostics,
completion, hover, formatting and renaming.

\\{octoscript-mode-map}"
  :syntax-table octoscript-mode-syntax-table
  (octoscript--common-setup)
  (setq-local font-lock-defaults '(octoscript--font-lock-keywords)))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.octo\\(?:script\\)?\\'" . octoscript-mode))

;;; Language server clients

(defconst octoscript-lsp-language-id "octoscript"
  "The LSP language id of Octoscript documents.")

(defun octoscript--initialization-options ()
  "The `initializationOptions' the server gets: `octoscript-catalogs'.
An empty object when there are none, never JSON null."
  (list :octoscript (or octoscript-catalogs (make-hash-table))))

;;; eglot

(declare-function eglot-execute-command "eglot" (server command arguments))
(declare-function eglot--current-server-or-lose "eglot" ())
(declare-function eglot-managed-p "eglot" ())
(declare-function eglot-signal-didChangeConfiguration "eglot" (server))

;;;###autoload
(defun octoscript-eglot-contact (&optional _interactive _project)
  "The eglot contact for `octoscript-lsp': program, arguments and options.
Reads `octoscript-lsp-program', `octoscript-lsp-arguments' and
`octoscript-catalogs' each time a server starts."
  `(,octoscript-lsp-program
    ,@octoscript-lsp-arguments
    :initializationOptions ,(octoscript--initialization-options)))

;;;###autoload
(with-eval-after-load 'eglot
  (defvar eglot-server-programs)
  (add-to-list 'eglot-server-programs
               '(((octoscript-mode :language-id "octoscript")
                  (octoscript-ts-mode :language-id "octoscript"))
                 . octoscript-eglot-contact)))

;;; lsp-mode

(declare-function lsp-register-client "lsp-mode" (client))
(declare-function make-lsp-client "lsp-mode" (&rest slots))
(declare-function lsp-stdio-connection "lsp-mode" (command &optional test-command))
(declare-function lsp-activate-on "lsp-mode" (&rest languages))
(declare-function lsp-configuration-section "lsp-mode" (section))
(declare-function lsp-notify "lsp-mode" (method params))
(declare-function lsp-request "lsp-mode" (method params &rest options))
(declare-function lsp-find-workspace "lsp-mode" (server-id &optional file-name))
(defvar lsp-language-id-configuration)
;; What lsp-mode's `with-lsp-workspace' binds to talk to one server;
;; bound here without the macro, which only exists when lsp-mode was
;; loaded at compile time.
(defvar lsp--cur-workspace)

(defconst octoscript-lsp-server-id 'octoscript-lsp
  "The id of the `octoscript-lsp' client in lsp-mode.")

(defun octoscript--lsp-mode-workspace ()
  "The lsp-mode workspace of `octoscript-lsp' for this buffer."
  (or (lsp-find-workspace octoscript-lsp-server-id (buffer-file-name))
      (user-error "No octoscript-lsp workspace for this buffer")))

(defun octoscript--lsp-mode-send-settings (workspace)
  "Send the `octoscript' section of lsp-mode's settings to WORKSPACE.
The section is what `lsp-register-custom-settings' registered under
\"octoscript.\"; lsp-mode answers `workspace/configuration' from
the same place.  The server reads settings only from
`workspace/didChangeConfiguration', so they are pushed."
  (let ((lsp--cur-workspace workspace))
    (lsp-notify "workspace/didChangeConfiguration"
                (list :settings (lsp-configuration-section "octoscript")))))

;;;###autoload
(defun octoscript-register-lsp-client ()
  "Register `octoscript-lsp' with lsp-mode for both Octoscript modes.
Done when lsp-mode loads.  The client runs `octoscript-lsp-program'
with `octoscript-lsp-arguments', sends `octoscript-catalogs' as
`initializationOptions' and, once the server is initialized, the
`octoscript' settings registered with `lsp-register-custom-settings'."
  (dolist (mode '(octoscript-mode octoscript-ts-mode))
    (add-to-list 'lsp-language-id-configuration
                 (cons mode octoscript-lsp-language-id)))
  (lsp-register-client
   (make-lsp-client
    :new-connection (lsp-stdio-connection
                     (lambda () (cons octoscript-lsp-program octoscript-lsp-arguments)))
    :activation-fn (lsp-activate-on octoscript-lsp-language-id)
    :initialization-options #'octoscript--initialization-options
    :initialized-fn #'octoscript--lsp-mode-send-settings
    :server-id octoscript-lsp-server-id)))

;;;###autoload
(with-eval-after-load 'lsp-mode
  (octoscript-register-lsp-client))

;;; Commands for either client

(defun octoscript--client ()
  "The client that manages this buffer: `lsp-mode', `eglot' or nil."
  (cond ((bound-and-true-p lsp-mode) 'lsp-mode)
        ((and (fboundp 'eglot-managed-p) (eglot-managed-p)) 'eglot)))

(defun octoscript--client-or-lose ()
  "The client that manages this buffer; an error when there is none."
  (or (octoscript--client)
      (user-error "No Octoscript language server in this buffer (start eglot or lsp-mode)")))

;;;###autoload
(defun octoscript-reload-catalogs ()
  "Ask the Octoscript server to read the catalog files it was given again.
The files are those named by `catalogFiles' in the server's settings;
eglot and lsp-mode also tell the server when one changes, where they
can watch it."
  (interactive)
  (pcase (octoscript--client-or-lose)
    ('lsp-mode (let ((lsp--cur-workspace (octoscript--lsp-mode-workspace)))
                 (lsp-request "workspace/executeCommand"
                              (list :command "octoscript.reloadCatalogs" :arguments []))))
    ('eglot (eglot-execute-command (eglot--current-server-or-lose)
                                   "octoscript.reloadCatalogs" []))))

;;;###autoload
(defun octoscript-send-settings ()
  "Send the `octoscript' settings to the running server again.
Under eglot these are `eglot-workspace-configuration'; under lsp-mode
the `octoscript.' settings of `lsp-register-custom-settings'.  Call
it after changing them, for new catalogs without a restart."
  (interactive)
  (pcase (octoscript--client-or-lose)
    ('lsp-mode (octoscript--lsp-mode-send-settings (octoscript--lsp-mode-workspace)))
    ('eglot (eglot-signal-didChangeConfiguration (eglot--current-server-or-lose)))))

;;; Tree-sitter (Emacs 29 and later)

(declare-function treesit-available-p "treesit.c")
(declare-function treesit-ready-p "treesit")
(declare-function treesit-parser-create "treesit.c")
(declare-function treesit-font-lock-rules "treesit")
(declare-function treesit-major-mode-setup "treesit")
(declare-function treesit-node-child-by-field-name "treesit.c")
(declare-function treesit-node-text "treesit")
(defvar treesit-font-lock-settings)
(defvar treesit-defun-name-function)
(defvar treesit-font-lock-feature-list)
(defvar treesit-defun-type-regexp)
(defvar treesit-simple-imenu-settings)

(defconst octoscript-ts-font-lock-queries
  '((comment nil "(comment) @font-lock-comment-face")
    (string nil "(string) @font-lock-string-face")
    (escape t "(escape_sequence) @font-lock-escape-face")
    (keyword nil "
[\"if\" \"elif\" \"else\" \"for\" \"in\" \"loop\" \"while\" \"return\"
 \"try\" \"catch\" \"use\" \"fn\" \"let\"] @font-lock-keyword-face
[(break_statement) (continue_statement)] @font-lock-keyword-face")
    (constant nil "[(true) (false) (nil)] @font-lock-constant-face")
    (number nil "(number) @font-lock-number-face")
    (module nil "
(module_path \"mod\" @font-lock-constant-face)
(module_path (identifier) @font-lock-constant-face)")
    (definition nil "
(function_declaration
  name: (identifier) @font-lock-function-name-face)
(let_declaration
  name: (identifier) @font-lock-function-name-face
  value: (lambda))")
    ;; After the functions: a `let' of a lambda keeps the function face.
    (definition nil "
(let_declaration name: (identifier) @font-lock-variable-name-face)
(parameters (identifier) @font-lock-variable-name-face)
(lambda_parameters (identifier) @font-lock-variable-name-face)")
    ;; highlights.scm colours `.await()' as a keyword through an `#eq?'
    ;; predicate, which Emacs's queries spell differently; here it is a call.
    (function-call nil "
(call_expression
  function: (identifier) @font-lock-function-call-face)
(call_expression
  function: (member_expression
              property: (identifier) @font-lock-function-call-face))")
    (property nil "
(record_field key: (identifier) @font-lock-property-name-face)
(member_expression property: (identifier) @font-lock-property-use-face)")
    (operator nil "
[\"=\" \"+=\" \"-=\" \"*=\" \"/=\" \"%=\" \"||\" \"&&\" \"==\" \"!=\" \"<\" \"<=\"
 \">\" \">=\" \"+\" \"-\" \"*\" \"/\" \"%\" \"!\" \"~\"] @font-lock-operator-face")
    (bracket nil "
[\"(\" \")\" \"[\" \"]\" \"{\" \"}\"] @font-lock-bracket-face")
    (delimiter nil "[\",\" \";\" \".\" \":\"] @font-lock-delimiter-face"))
  "Tree-sitter highlighting: a list of (FEATURE OVERRIDE QUERY).
The queries use the node names of grammar/tree-sitter-octoscript,
as its queries/highlights.scm does, with Emacs faces as captures.
They are applied in this order, and the first face given to a
piece of text stays unless a later query has OVERRIDE t.")

(defconst octoscript-ts-font-lock-feature-list
  '((comment definition)
    (keyword string module)
    (constant number escape function-call property)
    (operator bracket delimiter))
  "`treesit-font-lock-feature-list' of `octoscript-ts-mode'.")

(defun octoscript-ts--font-lock-settings ()
  "Compile `octoscript-ts-font-lock-queries' for the octoscript parser."
  (apply #'treesit-font-lock-rules
         (cl-loop for (feature override query)
                  in octoscript-ts-font-lock-queries
                  append (list :language 'octoscript :feature feature
                               :override override query))))

(defun octoscript-ts--defun-name (node)
  "The name of NODE, a function declaration, for imenu and `which-func'."
  (let ((name (treesit-node-child-by-field-name node "name")))
    (and name (treesit-node-text name t))))

(defun octoscript-ts-grammar-ready-p ()
  "Whether this Emacs can parse Octoscript with tree-sitter."
  ;; treesit.el, which holds `treesit-ready-p', is not preloaded.
  (and (fboundp 'treesit-available-p)
       (treesit-available-p)
       (require 'treesit nil t)
       (treesit-ready-p 'octoscript t)))

;;;###autoload
(define-derived-mode octoscript-ts-mode prog-mode "Octoscript[ts]"
  "Major mode for Octoscript, highlighted by tree-sitter (Emacs 29+).
Needs the octoscript grammar (libtree-sitter-octoscript); where
Emacs has no tree-sitter or the grammar is missing, the buffer is
highlighted by the regexps of `octoscript-mode' instead.
Indentation is the same in both modes: that of `octoscript format'.

\\{octoscript-ts-mode-map}"
  :syntax-table octoscript-mode-syntax-table
  (octoscript--common-setup)
  (if (not (octoscript-ts-grammar-ready-p))
      (progn
        (message "octoscript-ts-mode: no tree-sitter grammar for octoscript, %s"
                 "highlighting with regexps")
        (setq-local font-lock-defaults '(octoscript--font-lock-keywords)))
    (treesit-parser-create 'octoscript)
    (setq-local treesit-font-lock-settings (octoscript-ts--font-lock-settings))
    (setq-local treesit-font-lock-feature-list
                octoscript-ts-font-lock-feature-list)
    (setq-local treesit-defun-type-regexp "\\`function_declaration\\'")
    (setq-local treesit-defun-name-function #'octoscript-ts--defun-name)
    (setq-local treesit-simple-imenu-settings
                '(("Function" "\\`function_declaration\\'" nil nil)))
    (treesit-major-mode-setup)
    ;; `treesit-major-mode-setup' sets no indentation without indent
    ;; rules; keep the formatter's brace counting.
    (setq-local indent-line-function #'octoscript-indent-line)))

(provide 'octoscript-mode)
;;; octoscript-mode.el ends here
