;;; emacs_e2e.el --- Batch Emacs driver for tests/editors/test_emacs.py -*- lexical-binding: t -*-

;;; Commentary:

;; Runs in `emacs -Q --batch' (Debian's Emacs 28 with elpa-eglot 1.9, or
;; an Emacs with eglot built in).  It loads editors/emacs/octoscript-mode.el
;; the way a user would, sets the server program and a tool catalog in
;; `eglot-workspace-configuration', visits the sample file given as
;; $OCTOSCRIPT_TEST_FILE (its directory is the project root), connects
;; eglot and runs the checks one by one.  Each check
;; prints a `CHECK name: ok' or `CHECK name: FAIL ...' line and stores
;; what it saw; everything is written as JSON to $OCTOSCRIPT_TEST_RESULT
;; before Emacs exits.  Every wait is bounded.  Without eglot the result
;; is just {"skip": REASON}.
;;
;; Batch mode never runs the command loop, so what eglot and Flymake
;; would do from it is called directly: the connection is started with
;; `eglot' rather than `eglot-ensure', Flymake with `flymake-start', and
;; pending edits are sent with `eglot--signal-textDocument/didChange'
;; before each request.

;;; Code:

(require 'cl-lib)
(require 'json)
(require 'subr-x)

(defun octoscript-e2e--env (name)
  "The value of environment variable NAME, which must be set."
  (let ((value (getenv name)))
    (if (or (null value) (string-empty-p value))
        (error "%s is not set" name)
      value)))

;; Debian's elpa packages (eglot and the newer project, xref, eldoc it
;; needs) are not on the load path under -Q.
(dolist (dir (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/*"))
  (when (file-directory-p dir)
    (add-to-list 'load-path dir)))
(add-to-list 'load-path (octoscript-e2e--env "OCTOSCRIPT_EMACS_MODE_DIR"))

(unless (require 'eglot nil t)
  (with-temp-file (octoscript-e2e--env "OCTOSCRIPT_TEST_RESULT")
    (insert "{\"skip\": \"eglot is not installed (apt-get install elpa-eglot)\"}"))
  (kill-emacs 0))
(require 'flymake)
(require 'eldoc)
(require 'project)
(require 'octoscript-mode)

(defconst octoscript-e2e--timeout 15
  "Seconds any single wait may take.")

(defconst octoscript-e2e--settle 1.5
  "Seconds to keep listening after a diagnostic arrived, for a second copy.")

(defvar octoscript-e2e--results nil
  "Alist of findings, written as the JSON result.")

(defvar octoscript-e2e--failures 0
  "Number of failed checks.")

(defun octoscript-e2e--note (key value)
  "Record VALUE under KEY in the results."
  (setf (alist-get key octoscript-e2e--results) value))

(defun octoscript-e2e--check (name ok detail)
  "Print the CHECK line for NAME: OK or FAIL with DETAIL."
  (unless ok (cl-incf octoscript-e2e--failures))
  (octoscript-e2e--note (intern (format "check-%s" name)) (if ok t :json-false))
  (princ (format "CHECK %s: %s\n" name (if ok "ok" (format "FAIL %s" detail)))))

(defun octoscript-e2e--wait (predicate)
  "Let the server talk until PREDICATE is non-nil; return its value or nil."
  (let ((deadline (+ (float-time) octoscript-e2e--timeout))
        (value nil))
    (while (and (not (setq value (funcall predicate)))
                (< (float-time) deadline))
      (accept-process-output nil 0.05))
    value))

(defun octoscript-e2e--listen (seconds)
  "Keep handling the server's messages for SECONDS."
  (let ((deadline (+ (float-time) seconds)))
    (while (< (float-time) deadline)
      (accept-process-output nil 0.05))))

(defun octoscript-e2e--sync ()
  "Send the edits eglot holds back (no idle timer runs in batch mode)."
  (eglot--signal-textDocument/didChange))

(defun octoscript-e2e--goto (needle &optional offset)
  "Put point OFFSET characters after the start of the first NEEDLE."
  (goto-char (point-min))
  (search-forward needle)
  (goto-char (+ (match-beginning 0) (or offset 0))))

(defun octoscript-e2e--diagnostics ()
  "The Flymake diagnostics of the buffer as [LINE TYPE TEXT] vectors."
  (mapcar (lambda (diag)
            (vector (line-number-at-pos (flymake-diagnostic-beg diag))
                    (symbol-name (flymake-diagnostic-type diag))
                    (flymake-diagnostic-text diag)))
          (flymake-diagnostics)))

(defun octoscript-e2e--json-list (items)
  "ITEMS (strings or vectors) as a JSON array; strings lose their properties."
  (vconcat (mapcar (lambda (item)
                     (if (stringp item) (substring-no-properties item) item))
                   items)))

(defmacro octoscript-e2e--step (name &rest body)
  "Run BODY as step NAME; an error fails check NAME instead of the run."
  (declare (indent 1))
  `(condition-case err
       (progn ,@body)
     (error (octoscript-e2e--check ,name nil (format "error: %S" err)))))

(defun octoscript-e2e--completions ()
  "The candidates `completion-at-point' would offer at point."
  (octoscript-e2e--sync)
  (let ((capf (run-hook-wrapped 'completion-at-point-functions
                                (lambda (fn) (and (functionp fn) (funcall fn))))))
    (when capf
      (let ((start (nth 0 capf)) (end (nth 1 capf)) (table (nth 2 capf)))
        (all-completions (buffer-substring-no-properties start end) table)))))

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
    (octoscript-e2e--note 'language-id (eglot--language-id (eglot-current-server)))
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
    (octoscript-e2e--step "catalog-tool-completion"
      (octoscript-e2e--goto "tool.call(\"" (length "tool.call(\""))
      (let ((labels (octoscript-e2e--completions)))
        (octoscript-e2e--note 'tool-completions (octoscript-e2e--json-list labels))
        (octoscript-e2e--check "catalog-tool-completion"
                               (member "text.echo" labels) labels)))

    ;; 3b. A module from `octoscript-catalogs' (initializationOptions).
    (octoscript-e2e--step "init-options-module-completion"
      (goto-char (point-max))
      (let ((start (point)))
        (insert "use mod.app.")
        (let ((labels (octoscript-e2e--completions)))
          (octoscript-e2e--note 'module-completions (octoscript-e2e--json-list labels))
          (octoscript-e2e--check "init-options-module-completion"
                                 (member "weather" labels) labels))
        (delete-region start (point-max))
        (octoscript-e2e--sync)))

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
    (octoscript-e2e--step "format-buffer"
      (goto-char (point-max))
      (insert "fn   twice(n){\nreturn n*2\n}\n")
      (octoscript-e2e--sync)
      (octoscript-e2e--note 'before-format (buffer-substring-no-properties
                                           (point-min) (point-max)))
      (eglot-format-buffer)
      (let ((text (buffer-substring-no-properties (point-min) (point-max))))
        (octoscript-e2e--note 'after-format text)
        (octoscript-e2e--check "format-buffer"
                               (string-match-p "^fn twice(n) {\n    return n \\* 2\n}\n" text)
                               text)))

    ;; 8. eglot-rename renames every use.
    (octoscript-e2e--step "rename"
      (octoscript-e2e--sync)
      (let ((before (how-many "\\_<greeting\\_>" (point-min) (point-max))))
        (octoscript-e2e--goto "let greeting" (length "let gr"))
        (eglot-rename "salutation")
        (let ((text (buffer-substring-no-properties (point-min) (point-max))))
          (octoscript-e2e--note 'after-rename text)
          (octoscript-e2e--check
           "rename"
           (and (> before 1)
                (= (how-many "\\_<greeting\\_>" (point-min) (point-max)) 0)
                (= (how-many "\\_<salutation\\_>" (point-min) (point-max)) before))
           text))))

    ;; 9. A catalog file named in the workspace configuration (the inline
    ;;    catalog cleared with null), then read again on
    ;;    `octoscript-reload-catalogs' after it is rewritten.
    (octoscript-e2e--step "catalog-file"
      (let ((catalog (expand-file-name "tools.json" (file-name-directory file)))
            (server (eglot-current-server)))
        (with-temp-file catalog
          (insert "[{\"name\": \"text.file\", \"format\": \"text\"}]"))
        (setq-default eglot-workspace-configuration
                      '(:octoscript (:toolCatalog nil :catalogFiles ["tools.json"])))
        (eglot-signal-didChangeConfiguration server)
        (octoscript-e2e--goto "tool.call(\"" (length "tool.call(\""))
        (let ((labels (octoscript-e2e--wait
                       (lambda ()
                         (let ((found (octoscript-e2e--completions)))
                           (and (member "text.file" found) found))))))
          (octoscript-e2e--note 'file-completions (octoscript-e2e--json-list labels))
          (octoscript-e2e--check "catalog-file" (equal labels '("text.file")) labels))
        (with-temp-file catalog
          (insert "[{\"name\": \"text.file\", \"format\": \"text\"},"
                  " {\"name\": \"text.later\", \"format\": \"text\"}]"))
        (octoscript-reload-catalogs)
        (let ((labels (octoscript-e2e--wait
                       (lambda ()
                         (let ((found (octoscript-e2e--completions)))
                           (and (member "text.later" found) found))))))
          (octoscript-e2e--note 'reloaded-completions (octoscript-e2e--json-list labels))
          (octoscript-e2e--check "catalog-file-reload"
                                 (equal (sort labels #'string<) '("text.file" "text.later"))
                                 labels))))))

(defun octoscript-e2e--finish ()
  "Write the results, and eglot's event log to $OCTOSCRIPT_TEST_EVENTS."
  (octoscript-e2e--note 'failures octoscript-e2e--failures)
  (let ((events (cdr (assq 'events-buffer octoscript-e2e--results))))
    (when (and events (get-buffer events))
      (with-current-buffer events
        (write-region nil nil (octoscript-e2e--env "OCTOSCRIPT_TEST_EVENTS")))))
  (with-temp-file (octoscript-e2e--env "OCTOSCRIPT_TEST_RESULT")
    (insert (json-encode octoscript-e2e--results))))

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
