" Octoscript files; sourced by every Neovim (0.7 and newer) that has this
" directory on its 'runtimepath' when filetype detection starts.
autocmd BufRead,BufNewFile *.octoscript,*.octo setfiletype octoscript
