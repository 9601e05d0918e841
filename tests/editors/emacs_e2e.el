;;; emacs_e2e.el --- Batch Emacs driver for tests/editors/test_emacs.py -*- lexical-binding: t; coding: utf-8 -*-

;;; Commentary:

;; Runs in `emacs -Q --batch' (Debian's Emacs 28 with elpa-eglot 1.9, or
;; an Emacs with eglot built in).  It loads editors/emacs/octoscript-mode.el
;; the way a user would, sets the server program and a tool catalog in
;; `eglot-workspace-configuration', visits the sample file given as
;; $OCTOSCRIPT_TEST_FILE (its directory is the project root), connects
;; eglot and runs the checks one by one, with the bookkeeping of
;; emacs_e2e_harness.el.  Without eglot the result is just {"skip": REASON}.
;;
;; Batch mode never runs the command loop, so what eglot and Flymake
;; would do from it is called directly: the connection is started with
;; `eglot' rather than `eglot-ensure', Flymake with `flymake-start', and
;; pending edits are sent with `eglot--signal-textDocument/didChange'
;; before each request.

;;; Code:

(load (expand-file-name "emacs_e2e_harness" (file-name-directory load-file-name))
      nil t)

(unless (require 'eglot nil t)
  (octoscript-e2e--skip "eglot is not installed (apt-get install elpa-eglot)"))
(require 'flymake)
(require 'eldoc)
(require 'project)
(require 'xref)
(require 'octoscript-mode)

(defun octoscript-e2e--eglot-sync ()
  "Send the edits eglot holds back (no idle timer runs in batch mode).
Also drop eglot's cached completions (eglot 1.14 and later), which a
new completion session in the command loop would."
  (when (fboundp 'eglot--capf-session-flush)
    (eglot--capf-session-flush))
  (eglot--signal-textDocument/didChange))

(setq octoscript-e2e--sync-function #'octoscript-e2e--eglot-sync)

(defun octoscript-e2e--hover-docs ()
  "The documentation eldoc displays for point, as one string."
  (octoscript-e2e--sync)
  (let ((shown nil))
    (let ((eldoc-display-functions
           ;; eglot's `eldoc-documentation-enthusiast' strategy displays
           ;; as each answer arrives: the empty signature help may come
           ;; first.
           (list (lambda (docs _interactive)
                   (when docs
                     (setq shown (mapconcat (lambda (doc) (format "%s" (car doc)))
                                            docs "\n")))))))
      (eldoc-print-current-symbol-info t)
      (octoscript-e2e--wait (lambda () shown)))
    shown))

(defun octoscript-e2e--run ()
  "Visit the sample, connect eglot and run every check."
  (let* ((file (octoscript-e2e--env "OCTOSCRIPT_TEST_FILE"))
         ;; Shown in the selected window: eglot hands hover text only to
         ;; buffers that are on display.
         (buffer (find-file file)))
    (set-buffer buffer)
    (octoscript-e2e--note 'major-mode (symbol-name major-mode))
    (octoscript-e2e--check "major-mode" (eq major-mode 'octoscript-mode) major-mode)

    ;; 1. Opening the file starts eglot.
    (apply #'eglot (eglot--guess-contact))
    (let ((server (octoscript-e2e--wait
                   (lambda () (and (eglot-managed-p) (eglot-current-server))))))
      (octoscript-e2e--note 'events-buffer
                            (and server (buffer-name (jsonrpc-events-buffer server))))
      (octoscript-e2e--check "eglot-connected" server "no managed eglot server")
      (unless server
        (error "Eglot did not connect")))
    (octoscript-e2e--note 'language-id
                          ;; eglot 1.16 and later give each server a list.
                          (if (fboundp 'eglot--language-ids)
                              (car (eglot--language-ids (eglot-current-server)))
                            (eglot--language-id (eglot-current-server))))
    (octoscript-e2e--note 'server-name
                          (plist-get (eglot--server-info (eglot-current-server)) :name))
    (flymake-start)

    ;; 2. The valid file has no diagnostics.
    (octoscript-e2e--step "no-initial-diagnostics"
      (octoscript-e2e--listen octoscript-e2e--settle)
      (let ((diagnostics (octoscript-e2e--diagnostics)))
        (octoscript-e2e--note 'initial-diagnostics (octoscript-e2e--json-list diagnostics))
        (octoscript-e2e--check "no-initial-diagnostics" (null diagnostics) diagnostics)))

    ;; 3. A tool name from the catalog in `eglot-workspace-configuration'.
    ;; 3b. A module from `octoscript-catalogs' (initializationOptions).
    (octoscript-e2e--catalog-completion-steps)

    ;; 4. Hover text through eldoc on the `greeting' binding.
    (octoscript-e2e--step "eldoc-hover"
      (octoscript-e2e--goto "let greeting" (length "let gr"))
      (let ((docs (octoscript-e2e--hover-docs)))
        (octoscript-e2e--note 'hover docs)
        (octoscript-e2e--check "eldoc-hover"
                               (and docs (string-match-p "greeting" docs)) docs)))

    ;; 5. Completion at point offers the binding and completes it.
    (octoscript-e2e--step "binding-completion"
      (goto-char (point-max))
      (insert "let copy = greet")
      (let ((labels (octoscript-e2e--completions)))
        (octoscript-e2e--note 'binding-completions (octoscript-e2e--json-list labels))
        (completion-at-point)
        (let ((line (buffer-substring-no-properties (line-beginning-position)
                                                    (line-end-position))))
          (octoscript-e2e--note 'completed-line line)
          (octoscript-e2e--check "binding-completion"
                                 (and (member "greeting" labels)
                                      (equal line "let copy = greeting"))
                                 (list labels line))))
      (insert "\n")
      (octoscript-e2e--sync))

    ;; 6. One syntax error shows up in Flymake exactly once.
    (octoscript-e2e--step "flymake-syntax-error-once"
      (goto-char (point-max))
      (let ((start (point)))
        (insert "let v = true and false\n")
        (octoscript-e2e--sync)
        (octoscript-e2e--wait #'flymake-diagnostics)
        (octoscript-e2e--listen octoscript-e2e--settle)
        (let ((diagnostics (octoscript-e2e--diagnostics))
              (line (line-number-at-pos start)))
          (octoscript-e2e--note 'error-line line)
          (octoscript-e2e--note 'diagnostics-after-edit (octoscript-e2e--json-list diagnostics))
          (octoscript-e2e--check "flymake-syntax-error-once"
                                 (and (= (length diagnostics) 1)
                                      (= (aref (car diagnostics) 0) line))
                                 diagnostics))
        (delete-region start (point-max))
        (octoscript-e2e--sync)
        (octoscript-e2e--wait (lambda () (null (flymake-diagnostics))))
        (octoscript-e2e--note 'diagnostics-after-fix
                             (octoscript-e2e--json-list (octoscript-e2e--diagnostics)))))

    ;; 7. eglot-format-buffer formats.
    (octoscript-e2e--format-step #'eglot-format-buffer)

    ;; 8. eglot-rename renames every use.
    (octoscript-e2e--rename-step #'eglot-rename)

    ;; 9. A catalog file named in the workspace configuration (the inline
    ;;    catalog cleared with null), then read again on
    ;;    `octoscript-reload-catalogs' after it is rewritten.
    (octoscript-e2e--step "catalog-file"
      (let ((catalog (expand-file-name "tools.json" (file-name-directory file))))
        (with-temp-file catalog
          (insert "[{\"name\": \"text.file\", \"format\": \"text\"}]"))
        (setq-default eglot-workspace-configuration
                      '(:octoscript (:toolCatalog nil :catalogFiles ["tools.json"])))
        (octoscript-send-settings)
        (octoscript-e2e--catalog-file-checks catalog)))

    ;; 10. Non-ASCII text, in the position encoding eglot negotiated.
    (octoscript-e2e--unicode-steps)))

(defun octoscript-e2e--linepos-function ()
  "The function eglot counts a position's character with, in this buffer."
  (symbol-name (if (boundp 'eglot-current-linepos-function)
                   eglot-current-linepos-function    ; eglot 1.12 and later
                 eglot-current-column-function)))

(defun octoscript-e2e--line-offset ()
  "Characters from the start of the line to point (not display columns)."
  (- (point) (line-beginning-position)))

(defun octoscript-e2e--symbol-names ()
  "The names of the server's top-level document symbols, as it sees the text."
  (octoscript-e2e--sync)
  (mapcar (lambda (symbol) (plist-get symbol :name))
          (jsonrpc-request (eglot-current-server) :textDocument/documentSymbol
                           (list :textDocument (eglot--TextDocumentIdentifier)))))

;; The file $OCTOSCRIPT_TEST_UNICODE_FILE is
;;   use mod.tool
;;   let s = "é😀—中"; let x = 1
;;   let y = x + 1
;; `y' is typed behind each `x' (the first after an astral character and
;; an em dash), then definition, rename and a diagnostic are taken through
;; eglot's own conversions, and where they land is read from the buffer.
(defun octoscript-e2e--unicode-steps ()
  "Steps unicode-typing, unicode-definition, unicode-rename, unicode-diagnostic."
  (let ((coding-system-for-read 'utf-8))
    (find-file (octoscript-e2e--env "OCTOSCRIPT_TEST_UNICODE_FILE")))
  (octoscript-e2e--wait #'eglot-managed-p)
  (octoscript-e2e--note 'unicode-managed (if (eglot-managed-p) t :json-false))
  (octoscript-e2e--note 'position-encoding
                        (or (plist-get (eglot--capabilities (eglot-current-server))
                                       :positionEncoding)
                            :json-null))
  (octoscript-e2e--note 'linepos-function (octoscript-e2e--linepos-function))
  (flymake-start)
  (octoscript-e2e--step "unicode-typing"
    (octoscript-e2e--goto "let x" (length "let x"))
    (insert "y")
    (octoscript-e2e--goto "= x" (length "= x"))
    (insert "y")
    (let ((names (octoscript-e2e--symbol-names)))
      (octoscript-e2e--note 'unicode-symbols (octoscript-e2e--json-list names))
      (octoscript-e2e--check "unicode-typing" (equal names '("s" "xy" "y")) names)))
  (octoscript-e2e--step "unicode-definition"
    (octoscript-e2e--goto "= xy" (length "= x"))
    (octoscript-e2e--sync)
    (xref-find-definitions (xref-backend-identifier-at-point (xref-find-backend)))
    (let ((landed (vector (line-number-at-pos) (octoscript-e2e--line-offset)
                          (buffer-substring-no-properties (point) (line-end-position)))))
      (octoscript-e2e--note 'unicode-definition landed)
      (octoscript-e2e--check "unicode-definition" (equal (aref landed 2) "xy = 1") landed)))
  (octoscript-e2e--step "unicode-rename"
    (octoscript-e2e--goto "let xy" (length "let x"))
    (octoscript-e2e--sync)
    (eglot-rename "total")
    (let ((text (buffer-substring-no-properties (point-min) (point-max))))
      (octoscript-e2e--note 'unicode-after-rename text)
      (octoscript-e2e--check "unicode-rename" (string-match-p "let total = 1" text) text)))
  ;; A warning with a range (a tool the catalog file does not list): eglot
  ;; hands zero-width ranges to `flymake-diag-region', which takes the LSP
  ;; character for a 1-based column whatever the encoding.
  (octoscript-e2e--step "unicode-diagnostic"
    (goto-char (point-max))
    (insert "let o = \"😀—\"; let r = tool.call(\"text.nope\", \"\")\n")
    (octoscript-e2e--sync)
    (octoscript-e2e--wait #'flymake-diagnostics)
    (octoscript-e2e--listen octoscript-e2e--settle)
    (let ((found (mapcar (lambda (diag)
                           (let ((beg (flymake-diagnostic-beg diag)))
                             (save-excursion
                               (goto-char beg)
                               (vector (line-number-at-pos) (octoscript-e2e--line-offset)
                                       (buffer-substring-no-properties
                                        beg (flymake-diagnostic-end diag))
                                       (flymake-diagnostic-text diag)))))
                         (flymake-diagnostics))))
      (octoscript-e2e--note 'unicode-diagnostics (vconcat found))
      (octoscript-e2e--check "unicode-diagnostic"
                             (equal (mapcar (lambda (entry) (aref entry 2)) found)
                                    '("\"text.nope\""))
                             found))))

(setq octoscript-lsp-program (octoscript-e2e--env "OCTOSCRIPT_LSP_CMD"))
;; The sample's directory is its project: no VCS needed, and no prompt.
(add-hook 'project-find-functions
          (lambda (dir) (cons 'transient (file-name-as-directory dir))))
;; Module catalog at start-up, tool catalog after connecting: each path
;; has something only it can have delivered.
(setq octoscript-catalogs
      '(:moduleCatalog [(:path "mod.app.weather" :description "Host weather module.")]))
(setq-default eglot-workspace-configuration
              '(:octoscript
                (:toolCatalog [(:name "text.echo" :format "text"
                                :description "Echo the input text.")])))
(setq eglot-sync-connect octoscript-e2e--timeout)
(setq make-backup-files nil)

(condition-case err
    (octoscript-e2e--run)
  (error
   (octoscript-e2e--note 'driver-error (format "%S" err))
   (princ (format "driver error: %S\n" err))))
(octoscript-e2e--finish)
(when (eglot-current-server)
  (ignore-errors (eglot-shutdown (eglot-current-server))))
(kill-emacs (if (= octoscript-e2e--failures 0) 0 1))

;;; emacs_e2e.el ends here
