#!/usr/bin/env bash
# Installs what mlregress needs: the Debian packages that are missing, then the LibTorch of the
# default build and the test command's tools from PyPI (ci/install-python-deps.sh).
# Safe to run again: with everything present it does nothing and touches no network.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache git
  libtorch-dev   # the distribution's LibTorch: MLREGRESS_LIBTORCH=distro, and a build of .ci/run
  python3 python3-venv   # ci/install-python-deps.sh: the venvs of the wheel's LibTorch and the tools
  libgtest-dev libgmock-dev libbenchmark-dev
  libtomlplusplus-dev libpugixml-dev libcli11-dev nlohmann-json3-dev libfmt-dev
  libboost-math-dev
  libssl-dev     # SHA-256 of datasets (record_dataset)
  libsentencepiece-dev   # the example language model's tokenizer tool (suites/common/tokenizer_tool.cc)
  libxml2-utils
  chromium                                  # the report test renders report.html headless
  python3-prometheus-client prometheus      # the report test parses OpenMetrics (promtool)
  cmark-gfm                                 # the report test renders Markdown as GitHub does
  python3-yaml   # tests/ci_templates reads the CI templates
  slurm-wlm slurm-client munge   # tests/cluster: a one-node Slurm cluster runs the shard array and the merge
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} Debian packages present"
else
  echo "install-deps: installing ${missing[*]}"
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

"$(dirname "$0")/install-python-deps.sh"
