;;; emacs_lsp_mode_e2e.el --- Batch lsp-mode driver for tests/editors/test_emacs_lsp_mode.py -*- lexical-binding: t -*-

;;; Commentary:

;; Runs in `emacs -Q --batch' (Debian's Emacs 28 with elpa-lsp-mode
;; 8.0).  It loads editors/emacs/octoscript-mode.el the way a user
;; would, so the client is the one the mode registers when lsp-mode
;; loads; sets the server program, a module catalog in
;; `octoscript-catalogs' and a tool catalog in lsp-mode's custom
;; settings; visits the sample file given as $OCTOSCRIPT_TEST_FILE (its
;; directory is the project root), starts lsp-mode and runs the checks
;; one by one, with the bookkeeping of emacs_e2e_harness.el.  Without
;; lsp-mode the result is just {"skip": REASON}.
;;
;; What batch mode changes for lsp-mode:
;; - `lsp-deferred' waits for the command loop; `lsp' starts at once.
;; - `lsp' asks for the project root in the minibuffer unless it knows
;;   one: `lsp-auto-guess-root' takes project.el's, which a
;;   `project-find-functions' entry gives.
;; - The session file goes to the test's directory, not ~/.emacs.d.
;; - No idle timers: edits held back (full sync) are sent with
;;   `lsp--flush-delayed-changes', Flymake is started with `flymake-start'.
;; - The autoloads of lsp-mode's parts are not read under -Q; without
;;   them starting fails (`lsp-modeline-workspace-status-mode' is void).
;; - lsp-mode's completion reuses its last answer for the same start
;;   and prefix; it is cleared before each completion here.
;; - Hover is read from `lsp-describe-thing-at-point' (*lsp-help*): the
;;   eldoc path waits for an idle timer.
;; - The breadcrumb, modeline and lens extras are turned off: they work
;;   from timers.
;; - File notifications (lsp-mode's watchers) are delivered only while
;;   `read-event' waits, never by `accept-process-output'.

;;; Code:

(load (expand-file-name "emacs_e2e_harness" (file-name-directory load-file-name))
      nil t)

(unless (require 'lsp-mode nil t)
  (octoscript-e2e--skip "lsp-mode is not installed (apt-get install elpa-lsp-mode)"))
;; lsp-mode turns on its parts (modeline, headerline, lens, ...) through
;; their autoloads, which -Q does not read.
(load "lsp-mode-autoloads" nil t)
(require 'lsp-completion)
(require 'lsp-diagnostics)
(require 'flymake)
(require 'project)
(require 'octoscript-mode)

(defun octoscript-e2e--lsp-sync ()
  "Send the edits lsp-mode holds back (no idle timer runs in batch mode).
Also forget the last completion answer: lsp-mode reuses it for the
same start and prefix until a completion is inserted, so a catalog
changed since would not be asked for."
  (lsp--flush-delayed-changes)
  (lsp-completion--clear-cache))

(setq octoscript-e2e--sync-function #'octoscript-e2e--lsp-sync)

(defun octoscript-e2e--workspace ()
  "The initialized lsp-mode workspace of the current buffer, or nil."
  (cl-find-if (lambda (workspace) (eq (lsp--workspace-status workspace) 'initialized))
              (lsp-workspaces)))

(defun octoscript-e2e--buffer-diagnostics ()
  "lsp-mode's own diagnostics of the buffer as [LINE SEVERITY TEXT] vectors."
  (mapcar (lambda (diagnostic)
            (vector (1+ (lsp:position-line (lsp:range-start (lsp:diagnostic-range diagnostic))))
                    (lsp:diagnostic-severity? diagnostic)
                    (lsp:diagnostic-message diagnostic)))
          (lsp--get-buffer-diagnostics)))

(defun octoscript-e2e--hover-text ()
  "The text `lsp-describe-thing-at-point' shows for point."
  (octoscript-e2e--sync)
  (when (get-buffer "*lsp-help*")
    (kill-buffer "*lsp-help*"))
  (lsp-describe-thing-at-point)
  (when (get-buffer "*lsp-help*")
    (with-current-buffer "*lsp-help*"
      (string-trim (buffer-substring-no-properties (point-min) (point-max))))))

(defvar octoscript-e2e--tool-catalog
  [(:name "text.echo" :format "text" :description "Echo the input text.")]
  "The `octoscript.toolCatalog' setting.")

(defvar octoscript-e2e--catalog-files nil
  "The `octoscript.catalogFiles' setting; nil leaves it out.")

(defun octoscript-e2e--run ()
  "Visit the sample, start lsp-mode and run every check."
  (let* ((file (octoscript-e2e--env "OCTOSCRIPT_TEST_FILE"))
         (buffer (find-file file)))
    (set-buffer buffer)
    (octoscript-e2e--note 'major-mode (symbol-name major-mode))
    (octoscript-e2e--check "major-mode" (eq major-mode 'octoscript-mode) major-mode)

    ;; 1. The server starts and initializes.
    (lsp)
    (let ((workspace (octoscript-e2e--wait #'octoscript-e2e--workspace)))
      (octoscript-e2e--check "lsp-initialized" workspace "no initialized lsp-mode workspace")
      (unless workspace
        (error "The lsp-mode workspace did not initialize"))
      (octoscript-e2e--note 'server-id
                            (symbol-name (lsp--client-server-id (lsp--workspace-client workspace))))
      (octoscript-e2e--note 'root (lsp--workspace-root workspace))
      (octoscript-e2e--note 'events-buffer
                            (buffer-name (lsp--get-log-buffer-create workspace))))
    (octoscript-e2e--note 'language-id (lsp-buffer-language))
    (flymake-start)

    ;; 2. The valid file has no diagnostics.
    (octoscript-e2e--step "no-initial-diagnostics"
      (octoscript-e2e--listen octoscript-e2e--settle)
      (let ((diagnostics (octoscript-e2e--diagnostics)))
        (octoscript-e2e--note 'initial-diagnostics (octoscript-e2e--json-list diagnostics))
        (octoscript-e2e--check "no-initial-diagnostics" (null diagnostics) diagnostics)))

    ;; 3. A tool name from the catalog in lsp-mode's custom settings,
    ;;    which the client sends once the server is initialized.
    ;; 3b. A module from `octoscript-catalogs' (initializationOptions).
    (octoscript-e2e--catalog-completion-steps)

    ;; 4. Hover text on the `greeting' binding.
    (octoscript-e2e--step "hover"
      (octoscript-e2e--goto "let greeting" (length "let gr"))
      (let ((text (octoscript-e2e--hover-text)))
        (octoscript-e2e--note 'hover text)
        (octoscript-e2e--check "hover" (and text (string-match-p "greeting" text)) text)))

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

    ;; 6. One syntax error shows up exactly once, in lsp-mode's store and
    ;;    in Flymake.
    (octoscript-e2e--step "flymake-syntax-error-once"
      (goto-char (point-max))
      (let ((start (point)))
        (insert "let v = true and false\n")
        (octoscript-e2e--sync)
        (octoscript-e2e--wait #'flymake-diagnostics)
        (octoscript-e2e--listen octoscript-e2e--settle)
        (let ((diagnostics (octoscript-e2e--diagnostics))
              (stored (octoscript-e2e--buffer-diagnostics))
              (line (line-number-at-pos start)))
          (octoscript-e2e--note 'error-line line)
          (octoscript-e2e--note 'diagnostics-after-edit (octoscript-e2e--json-list diagnostics))
          (octoscript-e2e--note 'stored-diagnostics (octoscript-e2e--json-list stored))
          (octoscript-e2e--check "flymake-syntax-error-once"
                                 (and (= (length diagnostics) 1)
                                      (= (aref (car diagnostics) 0) line)
                                      (= (length stored) 1))
                                 (list diagnostics stored)))
        (delete-region start (point-max))
        (octoscript-e2e--sync)
        (octoscript-e2e--wait (lambda () (null (flymake-diagnostics))))
        (octoscript-e2e--note 'diagnostics-after-fix
                             (octoscript-e2e--json-list (octoscript-e2e--diagnostics)))))

    ;; 7. lsp-format-buffer formats.
    (octoscript-e2e--format-step #'lsp-format-buffer)

    ;; 8. lsp-rename renames every use.
    (octoscript-e2e--rename-step #'lsp-rename)

    ;; 9. A changed inline catalog reaches the running server through
    ;;    `octoscript-send-settings'.
    (octoscript-e2e--step "send-settings"
      (setq octoscript-e2e--tool-catalog
            [(:name "text.sent" :format "text" :description "Sent later.")])
      (octoscript-send-settings)
      (octoscript-e2e--goto "tool.call(\"" (length "tool.call(\""))
      (let ((labels (octoscript-e2e--wait
                     (lambda ()
                       (let ((found (octoscript-e2e--completions)))
                         (and (member "text.sent" found) found))))))
        (octoscript-e2e--note 'sent-completions (octoscript-e2e--json-list labels))
        (octoscript-e2e--check "send-settings" (equal labels '("text.sent")) labels)))

    ;; 10. A catalog file named in the settings, the inline catalog left
    ;;     out.  lsp-mode's settings drop nil values, so no JSON null
    ;;     can clear the inline catalog the server holds: the workspace
    ;;     is restarted instead.  Then the file is rewritten and read
    ;;     again on `octoscript-reload-catalogs'.
    (octoscript-e2e--step "catalog-file"
      (let ((catalog (expand-file-name "tools.json" (file-name-directory file)))
            (old (octoscript-e2e--workspace)))
        (with-temp-file catalog
          (insert "[{\"name\": \"text.file\", \"format\": \"text\"}]"))
        (setq octoscript-e2e--tool-catalog nil
              octoscript-e2e--catalog-files ["tools.json"])
        (lsp-workspace-restart old)
        (let ((new (octoscript-e2e--wait
                    (lambda ()
                      (let ((workspace (octoscript-e2e--workspace)))
                        (and workspace (not (eq workspace old)) workspace))))))
          (octoscript-e2e--check "restarted" new "no new workspace after the restart")
          (when new
            (octoscript-e2e--note 'events-buffer
                                  (buffer-name (lsp--get-log-buffer-create new)))))
        (octoscript-e2e--catalog-file-checks catalog)))

    ;; 11. lsp-mode watches the catalog file for the server: a rewrite is
    ;;     read again with no command.  File events arrive only while
    ;;     `read-event' waits, which the waits above never do.
    (octoscript-e2e--step "catalog-file-watched"
      (let ((catalog (expand-file-name "tools.json" (file-name-directory file))))
        (with-temp-file catalog
          (insert "[{\"name\": \"text.watched\", \"format\": \"text\"}]"))
        (octoscript-e2e--goto "tool.call(\"" (length "tool.call(\""))
        (let ((labels (octoscript-e2e--wait
                       (lambda ()
                         (read-event nil nil 0.05)
                         (let ((found (octoscript-e2e--completions)))
                           (and (member "text.watched" found) found))))))
          (octoscript-e2e--note 'watched-completions (octoscript-e2e--json-list labels))
          (octoscript-e2e--check "catalog-file-watched"
                                 (equal labels '("text.watched")) labels))))))

(setq octoscript-lsp-program (octoscript-e2e--env "OCTOSCRIPT_LSP_CMD"))
;; The sample's directory is its project: no VCS needed, and no prompt.
(add-hook 'project-find-functions
          (lambda (dir) (cons 'transient (file-name-as-directory dir))))
(setq lsp-auto-guess-root t
      lsp-session-file (expand-file-name
                        "lsp-session"
                        (file-name-directory (octoscript-e2e--env "OCTOSCRIPT_TEST_RESULT")))
      lsp-keep-workspace-alive nil
      lsp-restart 'ignore
      lsp-enable-file-watchers t
      lsp-log-io t
      lsp-diagnostics-provider :flymake
      lsp-completion-provider :capf
      lsp-enable-snippet nil
      lsp-headerline-breadcrumb-enable nil
      lsp-modeline-code-actions-enable nil
      lsp-modeline-diagnostics-enable nil
      lsp-lens-enable nil
      lsp-response-timeout octoscript-e2e--timeout)
;; Module catalog at start-up, tool catalog after initializing: each
;; path has something only it can have delivered.
(setq octoscript-catalogs
      '(:moduleCatalog [(:path "mod.app.weather" :description "Host weather module.")]))
(lsp-register-custom-settings
 '(("octoscript.toolCatalog" octoscript-e2e--tool-catalog)
   ("octoscript.catalogFiles" octoscript-e2e--catalog-files)))
(setq make-backup-files nil)

(condition-case err
    (octoscript-e2e--run)
  (error
   (octoscript-e2e--note 'driver-error (format "%S" err))
   (princ (format "driver error: %S\n" err))))
(octoscript-e2e--finish)
;; lsp-mode shuts its servers down from `kill-emacs-hook'.
(kill-emacs (if (= octoscript-e2e--failures 0) 0 1))

;;; emacs_lsp_mode_e2e.el ends here
