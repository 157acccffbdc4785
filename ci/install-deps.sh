#!/usr/bin/env bash
# Installs the Debian 12 packages mlregress needs, only those that are missing.
# Safe to run again: with everything present it does nothing and touches no network.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache git
  libtorch-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libtomlplusplus-dev libpugixml-dev libcli11-dev nlohmann-json3-dev libfmt-dev
  libboost-math-dev
  libssl-dev     # SHA-256 of datasets (record_dataset)
  libxml2-utils python3
  chromium                                  # the report test renders report.html headless
  python3-prometheus-client prometheus      # the report test parses OpenMetrics (promtool)
  cmark-gfm                                 # the report test renders Markdown as GitHub does
  clang-format   # ci/format.sh --check, run by ci/test.sh
  rsync python3-yaml   # tests/ci_templates: gitlab-ci-local copies artifacts with rsync; the workflow check reads YAML
  slurm-wlm slurm-client munge   # tests/cluster: a one-node Slurm cluster runs the shard array and the merge
)
# tests/ci_templates installs its tools with npm; a machine without Node.js gets Debian's.
if ! command -v npm >/dev/null; then packages+=(nodejs npm); fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
