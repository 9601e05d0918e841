;;; emacs_fix_all.el --- Batch Emacs driver for tests/editors/test_emacs_fix_all.py -*- lexical-binding: t; coding: utf-8 -*-

;;; Commentary:

;; Runs in `emacs -Q --batch' with eglot: visits $OCTOSCRIPT_TEST_FILE,
;; connects eglot with a tool catalog, defines `octoscript-fix-all' exactly
;; as docs/editors.md gives it, hangs it on `before-save-hook' and saves the
;; after each of two edits (Emacs saves only a modified buffer): the first
;; save applies the server's fix-all action, the second finds nothing to
;; fix and must still save.  The bookkeeping is
;; emacs_e2e_harness.el's.

;;; Code:

(load (expand-file-name "emacs_e2e_harness" (file-name-directory load-file-name))
      nil t)

(unless (require 'eglot nil t)
  (octoscript-e2e--skip "eglot is not installed (apt-get install elpa-eglot)"))
(require 'octoscript-mode)

;; From docs/editors.md ("Fix all on save", eglot).
(defun octoscript-fix-all ()
  (interactive)
  (ignore-errors
    (eglot-code-actions (point-min) (point-max) "source.fixAll.octoscript" t)))
(add-hook 'octoscript-mode-hook
          (lambda () (add-hook 'before-save-hook #'octoscript-fix-all nil t)))

(setq octoscript-lsp-program (octoscript-e2e--env "OCTOSCRIPT_LSP_CMD"))
(setq octoscript-catalogs
      '(:toolCatalog [(:name "text.echo" :format "text" :description "Echo.")]))
(setq eglot-sync-connect octoscript-e2e--timeout)
(setq eglot-confirm-server-initiated-edits nil)
(setq make-backup-files nil)

(defun octoscript-fix-all-e2e--run ()
  (let* ((file (octoscript-e2e--env "OCTOSCRIPT_TEST_FILE"))
         (buffer (find-file file)))
    (set-buffer buffer)
    (apply #'eglot (eglot--guess-contact))
    (unless (octoscript-e2e--wait (lambda () (and (eglot-managed-p) (eglot-current-server))))
      (error "Eglot did not connect"))
    (octoscript-e2e--step "save-fixes"
      (goto-char (point-max))
      (insert "let more = 1\n")
      (eglot--signal-textDocument/didChange)
      (save-buffer)
      (octoscript-e2e--note 'saved (with-temp-buffer
                                     (insert-file-contents file)
                                     (buffer-string)))
      (octoscript-e2e--check "save-fixes" (not (buffer-modified-p)) "buffer left modified"))
    (octoscript-e2e--step "save-clean"
      (goto-char (point-max))
      (insert "let again = 2\n")
      (eglot--signal-textDocument/didChange)
      (save-buffer)
      (octoscript-e2e--check "save-clean" (not (buffer-modified-p)) "not saved"))
    (octoscript-e2e--note 'final (with-temp-buffer
                                   (insert-file-contents file)
                                   (buffer-string)))))

(condition-case err
    (octoscript-fix-all-e2e--run)
  (error
   (octoscript-e2e--note 'driver-error (format "%S" err))
   (princ (format "driver error: %S\n" err))))
(octoscript-e2e--finish)
(when (eglot-current-server)
  (ignore-errors (eglot-shutdown (eglot-current-server))))
(kill-emacs (if (= octoscript-e2e--failures 0) 0 1))

;;; emacs_fix_all.el ends here
