#!/usr/bin/env bash
# Install what tmasim needs from Debian (only what is missing; quiet) and build it.
#   scripts/setup.sh [BUILD_DIR]     (TMASIM_TARGETS="tmasim" builds only those targets)
set -euo pipefail
browser_missing=()
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
packages=(cmake g++ make pkg-config zlib1g-dev nlohmann-json3-dev libcli11-dev libgtest-dev libgmock-dev
          libbenchmark-dev libsystemc-dev verilator yosys python3 python3-matplotlib time clang libclang-rt-14-dev
          pybind11-dev python3-pandas python3-distributed)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "tmasim setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  # apt's own chatter (debconf's "delaying package configuration") goes to a log shown on failure.
  apt_log=$(mktemp)
  if ! DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$apt_log" 2>&1; then
    tail -n 20 "$apt_log"
    echo "tmasim setup: apt-get install failed" >&2
    exit 1
  fi
  rm -f "$apt_log"
fi
# Optional: the real-browser check (tests/check_browser.py) needs chromium and the speedscope viewer.
if [ "${TMASIM_BROWSER_CHECK:-0}" = 1 ]; then
  command -v chromium >/dev/null || browser_missing+=(chromium)
  command -v npm >/dev/null || browser_missing+=(npm)
  if [ ${#browser_missing[@]} -gt 0 ]; then
    echo "tmasim setup: installing ${browser_missing[*]} for the browser check"
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    DEBIAN_FRONTEND=noninteractive ${sudo_cmd:-} apt-get install -y -qq --no-install-recommends "${browser_missing[@]}" >/dev/null
  fi
  if [ ! -f "$build/web/node_modules/speedscope/dist/release/index.html" ]; then
    echo "tmasim setup: installing the speedscope trace viewer (npm) into $build/web"
    mkdir -p "$build/web"
    npm install --silent --no-audit --no-fund --prefix "$build/web" speedscope >/dev/null 2>&1
  fi
fi
# The compiler's output goes to a log, named (and its end shown) only when the build fails.
mkdir -p "$build"
log=$build/build.log
echo "tmasim setup: configuring and building in $build (log: $log)"
if ! { cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release && cmake --build "$build" -j"$(nproc)" ${TMASIM_TARGETS:+--target $TMASIM_TARGETS}; } >"$log" 2>&1; then
  tail -n 40 "$log"
  echo "tmasim setup: the build failed; the whole log is $log" >&2
  exit 1
fi
echo "tmasim setup: built in $build"
# `import tmasim` in Debian's python3 (docs/python.md): a .pth in its user site-packages names the module's build.
if compgen -G "$build/python/tmasim/_tmasim*.so" > /dev/null && [ -x /usr/bin/python3 ]; then
  site=$(/usr/bin/python3 -m site --user-site)
  mkdir -p "$site" && echo "$build/python" > "$site/tmasim.pth"
  echo "tmasim setup: the Python module: import tmasim ($site/tmasim.pth)"
fi
