#!/bin/sh
# Copy the query files to the Neovim plugin's runtimepath directory
# (editors/neovim/queries/octoscript); tests/grammar/test_queries.py checks the
# copies are identical.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
target="$here/../../editors/neovim/queries/octoscript"
mkdir -p "$target"
cp "$here"/queries/*.scm "$target"/
