;;; emacs_e2e_harness.el --- What the batch Emacs drivers share -*- lexical-binding: t -*-

;;; Commentary:

;; Loaded by emacs_e2e.el (eglot) and emacs_lsp_mode_e2e.el (lsp-mode),
;; which tests/editors/test_emacs.py and test_emacs_lsp_mode.py run in
;; `emacs -Q --batch'.  It puts Debian's elpa packages and
;; editors/emacs ($OCTOSCRIPT_EMACS_MODE_DIR) on the load path, and
;; gives the drivers their bookkeeping: each check prints a `CHECK
;; name: ok' or `CHECK name: FAIL ...' line and stores what it saw,
;; and everything is written as JSON to $OCTOSCRIPT_TEST_RESULT before
;; Emacs exits.  Every wait is bounded.  A driver whose client is not
;; installed writes just {"skip": REASON}.
;;
;; Batch mode never runs the command loop or idle timers, so edits a
;; client holds back must be sent by hand: each driver sets
;; `octoscript-e2e--sync-function', which runs before every request.

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

;; Debian's elpa packages (eglot, lsp-mode and what they need) are not on
;; the load path under -Q.  Emacs 28 needs them first (elpa-eglot wants
;; newer project, xref and eldoc than it has); from Emacs 29 on, eglot and
;; those are built in and newer than Debian 12's elpa copies, which go last.
(dolist (dir (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/*"))
  (when (file-directory-p dir)
    (add-to-list 'load-path dir (>= emacs-major-version 29))))
(add-to-list 'load-path (octoscript-e2e--env "OCTOSCRIPT_EMACS_MODE_DIR"))

(defconst octoscript-e2e--timeout 15
  "Seconds any single wait may take.")

(defconst octoscript-e2e--settle 1.5
  "Seconds to keep listening after a diagnostic arrived, for a second copy.")

(defvar octoscript-e2e--results nil
  "Alist of findings, written as the JSON result.")

(defvar octoscript-e2e--failures 0
  "Number of failed checks.")

(defvar octoscript-e2e--sync-function #'ignore
  "Sends the edits the client holds back; set by each driver.")

(defun octoscript-e2e--skip (reason)
  "Write a result that skips the tests for REASON, and exit."
  (with-temp-file (octoscript-e2e--env "OCTOSCRIPT_TEST_RESULT")
    (insert (json-encode `((skip . ,reason)))))
  (kill-emacs 0))

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
  "Send the edits the client holds back (no idle timer runs in batch mode)."
  (funcall octoscript-e2e--sync-function))

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

;; The steps both clients take the same way, with the client's own command.

;; Steps 3 and 3b: a catalog tool name (from the client's settings) after
;; `tool.call("', and a module from `octoscript-catalogs' after `use mod.app.'.
(defun octoscript-e2e--catalog-completion-steps ()
  "Steps catalog-tool-completion and init-options-module-completion."
  (octoscript-e2e--step "catalog-tool-completion"
    (octoscript-e2e--goto "tool.call(\"" (length "tool.call(\""))
    (let ((labels (octoscript-e2e--completions)))
      (octoscript-e2e--note 'tool-completions (octoscript-e2e--json-list labels))
      (octoscript-e2e--check "catalog-tool-completion"
                             (member "text.echo" labels) labels)))
  (octoscript-e2e--step "init-options-module-completion"
    (goto-char (point-max))
    (let ((start (point)))
      (insert "use mod.app.")
      (let ((labels (octoscript-e2e--completions)))
        (octoscript-e2e--note 'module-completions (octoscript-e2e--json-list labels))
        (octoscript-e2e--check "init-options-module-completion"
                               (member "weather" labels) labels))
      (delete-region start (point-max))
      (octoscript-e2e--sync))))

;; The catalog-file steps once the client has been told to read CATALOG
;; (a file giving `text.file'): its tool is completed, then CATALOG gains
;; `text.later' and `octoscript-reload-catalogs' brings it in.
(defun octoscript-e2e--catalog-file-checks (catalog)
  "Checks catalog-file and catalog-file-reload for the catalog file CATALOG."
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
                           labels)))

(defun octoscript-e2e--format-step (format-buffer)
  "Step format-buffer: FORMAT-BUFFER gives an unformatted function the formatter's text."
  (octoscript-e2e--step "format-buffer"
    (goto-char (point-max))
    (insert "fn   twice(n){\nreturn n*2\n}\n")
    (octoscript-e2e--sync)
    (octoscript-e2e--note 'before-format (buffer-substring-no-properties
                                         (point-min) (point-max)))
    (funcall format-buffer)
    (let ((text (buffer-substring-no-properties (point-min) (point-max))))
      (octoscript-e2e--note 'after-format text)
      (octoscript-e2e--check "format-buffer"
                             (string-match-p "^fn twice(n) {\n    return n \\* 2\n}\n" text)
                             text))))

(defun octoscript-e2e--rename-step (rename)
  "Step rename: (RENAME NEW-NAME) at `greeting' renames every use."
  (octoscript-e2e--step "rename"
    (octoscript-e2e--sync)
    (let ((before (how-many "\\_<greeting\\_>" (point-min) (point-max))))
      (octoscript-e2e--goto "let greeting" (length "let gr"))
      (funcall rename "salutation")
      (let ((text (buffer-substring-no-properties (point-min) (point-max))))
        (octoscript-e2e--note 'after-rename text)
        (octoscript-e2e--check
         "rename"
         (and (> before 1)
              (= (how-many "\\_<greeting\\_>" (point-min) (point-max)) 0)
              (= (how-many "\\_<salutation\\_>" (point-min) (point-max)) before))
         text)))))

(defun octoscript-e2e--finish ()
  "Write the results, and the client's event log to $OCTOSCRIPT_TEST_EVENTS.
The log is the buffer named by the `events-buffer' result."
  (octoscript-e2e--note 'failures octoscript-e2e--failures)
  (let ((events (cdr (assq 'events-buffer octoscript-e2e--results))))
    (when (and events (get-buffer events))
      (with-current-buffer events
        (let ((coding-system-for-write 'utf-8))
          (write-region nil nil (octoscript-e2e--env "OCTOSCRIPT_TEST_EVENTS"))))))
  (let ((coding-system-for-write 'utf-8))
    (with-temp-file (octoscript-e2e--env "OCTOSCRIPT_TEST_RESULT")
      (insert (json-encode octoscript-e2e--results)))))

(provide 'emacs_e2e_harness)
;;; emacs_e2e_harness.el ends here
