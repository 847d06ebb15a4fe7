#!/usr/bin/env python3
"""A real browser opens what tmasim writes: Debian's headless chromium loads the Perfetto/
Chrome trace of the GEMM example into the offline speedscope viewer (the npm package) and
the explain SVG of a 64x64 fp16 128B tile; each page's DOM must show the named tracks or
the chunk labels, and a screenshot (kept next to the test's outputs) must show a picture.

usage: check_browser.py TMASIM WORKDIR
Exits 77 (skipped) with a message when chromium or speedscope is not installed:
  apt-get install chromium; npm install --prefix build/web speedscope
(or TMASIM_SPEEDSCOPE=/path/to/speedscope/dist/release)."""
import base64
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_picture import read_png  # noqa: E402
from checks import Checks  # noqa: E402

SKIP = 77


def find_speedscope(build):
    candidates = [os.environ.get("TMASIM_SPEEDSCOPE", ""),
                  os.path.join(build, "web/node_modules/speedscope/dist/release")]
    if shutil.which("npm"):
        root = subprocess.run(["npm", "root", "-g"], capture_output=True, text=True).stdout.strip()
        candidates.append(os.path.join(root, "speedscope/dist/release"))
    return next((c for c in candidates if c and os.path.isfile(os.path.join(c, "index.html"))), None)


def chromium(browser, url, *extra):
    args = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
            "--window-size=1400,900", "--virtual-time-budget=15000", *extra, url]
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def main():
    tmasim, work = sys.argv[1], os.path.abspath(sys.argv[2])
    build = os.path.dirname(os.path.abspath(tmasim))
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    viewer = find_speedscope(build)
    if not browser or not viewer:
        print("skipped: needs Debian's chromium and the speedscope npm package "
              f"(chromium: {browser or 'missing'}, speedscope: {viewer or 'missing'})")
        sys.exit(SKIP)
    os.makedirs(work, exist_ok=True)
    check = Checks()

    # The trace, loaded as speedscope's own command line loads a file.
    trace = os.path.join(work, "gemm.trace.json")
    subprocess.run([tmasim, "run", "--trace", trace], check=True, capture_output=True)
    profile = os.path.join(work, "gemm.trace.js")
    with open(trace, "rb") as f, open(profile, "w") as out:
        out.write(f"speedscope.loadFileFromBase64({json.dumps('gemm.trace.json')}, "
                  f"{json.dumps(base64.b64encode(f.read()).decode())})")
    url = f"file://{viewer}/index.html#localProfilePath={profile}"
    with open(trace) as f:
        tracks = {(e["pid"], e["tid"]) for e in json.load(f)["traceEvents"] if e["ph"] == "X"}
    dom = chromium(browser, url, "--dump-dom").stdout
    check("SM 0 (pid 0), CTA 0 main (tid 0)" in dom, "speedscope shows the track 'SM 0 (pid 0), CTA 0 main (tid 0)'")
    check(f"(1/{len(tracks)})" in dom, f"speedscope lists all {len(tracks)} thread tracks")
    shot = os.path.join(work, "gemm.trace.png")
    chromium(browser, url, f"--screenshot={shot}")
    _, _, colours = read_png(shot) if os.path.exists(shot) else (0, 0, 0)
    check(colours >= 8, f"the trace screenshot {shot} shows slices ({colours} colours)")

    # The explain picture.
    svg = os.path.join(work, "explain.svg")
    subprocess.run([tmasim, "explain", "--dtype", "float16", "--dims", "64,64", "--swizzle", "128b", "--coords", "0,0",
                    "--svg", svg], check=True, capture_output=True)
    dom = chromium(browser, f"file://{svg}", "--dump-dom").stdout
    check("parsererror" not in dom and ">63,56<" in dom and ">8176<" in dom,
          "chromium parses the explain SVG and holds its labels (63,56 and 8176)")
    shot = os.path.join(work, "explain.svg.png")
    chromium(browser, f"file://{svg}", f"--screenshot={shot}")
    _, _, colours = read_png(shot) if os.path.exists(shot) else (0, 0, 0)
    check(colours >= 9, f"the explain screenshot {shot} shows the bank colours ({colours} colours)")
    check.finish()


if __name__ == "__main__":
    main()
