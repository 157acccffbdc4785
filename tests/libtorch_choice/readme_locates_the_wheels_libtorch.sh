#!/usr/bin/env bash
# The README's way to find the LibTorch inside the PyTorch wheel must work for every install the
# README describes, including `pip install --no-deps torch` (what ci/install-python-deps.sh does):
# there `import torch` fails (its Python dependencies, typing_extensions first, are missing), so a
# locator that imports torch prints nothing. The command is read from the README's table and run
# with the wheel venv's own python; the folder it prints must hold Torch's CMake package.
#   readme_locates_the_wheels_libtorch.sh SOURCE_DIR TORCH_INSTALL_PREFIX
# Exit 77 (skipped) when the build's LibTorch is not a wheel's (a distribution or archive one).
set -euo pipefail
source_dir=${1:?usage: $0 SOURCE_DIR TORCH_INSTALL_PREFIX}
torch_prefix=${2:?usage: $0 SOURCE_DIR TORCH_INSTALL_PREFIX}
case "$torch_prefix" in
  */site-packages/torch) ;;
  *) echo "SKIP: the LibTorch of this build ($torch_prefix) is not a wheel's"; exit 77 ;;
esac
python="$torch_prefix/../../../../bin/python"
[ -x "$python" ] || { echo "SKIP: no venv python beside $torch_prefix"; exit 77; }

row=$(grep -F '| the LibTorch inside the PyTorch wheel' "$source_dir/README.md") \
  || { echo "FAIL: the README has no row for the wheel's LibTorch"; exit 1; }
# The command inside "$(...)" of the row's second cell.
command=$(python3 -c 'import re, sys; m = re.search(r"\$\((python .*?)\)\"`", sys.argv[1]); print(m.group(1) if m else "")' "$row")
[ -n "$command" ] || { echo "FAIL: no \$(python ...) command in the README's row: $row"; exit 1; }
echo "README: $command"
old_status=0
"$python" -c 'import torch' >/dev/null 2>&1 || old_status=$?
echo "import torch in this venv: exit $old_status (a locator that imports torch $([ "$old_status" -eq 0 ] && echo works || echo fails) here)"

folder=$(PATH="$(dirname "$python"):$PATH" bash -c "$command") \
  || { echo "FAIL: the README's locator fails in a venv with the wheel installed the README's way"; exit 1; }
[ -f "$folder/share/cmake/Torch/TorchConfig.cmake" ] \
  || { echo "FAIL: the README's locator printed '$folder', which holds no share/cmake/Torch/TorchConfig.cmake"; exit 1; }
[ "$(cd "$folder" && pwd -P)" = "$(cd "$torch_prefix" && pwd -P)" ] \
  || { echo "FAIL: the README's locator printed '$folder', not the build's $torch_prefix"; exit 1; }
echo "PASS: the README's locator prints $folder"
