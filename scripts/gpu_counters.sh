#!/usr/bin/env bash
# Reads the H100's DRAM and L2 counters (ncu) for programs emitted by `scripts/gpu_scenarios.sh emit`.
#
#   scripts/gpu_counters.sh run DIR OUT   (on the GPU machine, after `gpu_scenarios.sh run DIR OUT`,
#                                         which built them) profiles each program's scenario kernel
#                                         twice: its first timed cold launch with ncu's own cache
#                                         flush before each pass (`cold`: a clean, empty L2) and its
#                                         first timed warm launch with no flush (`warm`: the L2 its
#                                         untimed warm-up left). Writes OUT/counters.csv.gz (ncu's raw
#                                         page, one row a launch) and OUT/counters.jsonl (per program
#                                         and state: each gpu__, gpc__, dram__ and lts__ metric of the
#                                         launch, and its unit; ncu's device attributes are left out).
#
# The program runs one repetition a mode (its argument 1): launches 0-1 cold, 2-3 warm, 4-5
# cold_clean, launch 0, 2 and 4 untimed warm-ups. Metrics that this ncu does not know are left out
# and listed in OUT/counters.log. Environment: TIMEOUT seconds per profile (300), EXTRA: more metrics
# (comma-separated, passed as they are: `breakdown:...` too), STATES: which launches ("cold warm"; also
# `dirty`: the first timed cold launch with no flush of ncu's, after the harness's own write flush).
set -uo pipefail
[ "${1:-}" = run ] || { echo "usage: gpu_counters.sh run DIR OUT" >&2; exit 2; }
dir=${2:?DIR}; out=${3:?OUT}
log=$out/counters.log
mkdir -p "$out"
want="gpu__time_duration.sum gpc__cycles_elapsed.max dram__bytes_read.sum dram__bytes_write.sum
lts__t_sectors.sum lts__t_sectors_lookup_hit.sum lts__t_sectors_lookup_miss.sum
lts__t_sectors_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum lts__t_requests_srcunit_tex_op_read.sum
lts__t_sectors_srcunit_ltcfabric.sum lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum
lts__t_sectors_srcunit_ltcfabric_lookup_miss.sum lts__t_sectors_srcnode_gpc.sum
lts__d_sectors_fill_device.sum lts__d_sectors_fill_sysmem.sum
dram__throughput.avg.pct_of_peak_sustained_elapsed lts__throughput.avg.pct_of_peak_sustained_elapsed"
ncu --query-metrics --chip gh100 > "$out/metrics.txt" 2>>"$log" || ncu --query-metrics > "$out/metrics.txt" 2>>"$log"
metrics=""
for m in $want; do
  base=${m%%.*}
  if grep -q "^$base[[:space:]]" "$out/metrics.txt"; then metrics="$metrics,$m"; else echo "not known to ncu: $m" >> "$log"; fi
done
metrics=${metrics#,}
# a listing this script cannot read: ask for them all (ncu then names any it does not know)
[ -n "$metrics" ] || metrics=$(echo $want | tr ' ' ',')
[ -n "${EXTRA:-}" ] && metrics="$metrics,$EXTRA"
echo "metrics: $metrics" >> "$log"
csv=$out/counters.csv
: > "$csv"
while read -r id file; do
  for state in ${STATES:-cold warm}; do
    case $state in
      cold) skip=1; cache=all ;;
      dirty) skip=1; cache=none ;;  # the harness's own cold launch, after its write flush, as it left the L2
      *) skip=3; cache=none ;;
    esac
    timeout "${TIMEOUT:-300}" ncu --csv --page raw --kernel-name scenario_kernel --launch-skip $skip --launch-count 1 \
      --cache-control $cache --metrics "$metrics" "$dir/$id/scenario" "$dir/$id/ncu_result.json" 1 \
      > "$dir/$id/ncu_$state.csv" 2>> "$log"
    echo "$file $state: ncu exit $?" | tee -a "$log"
    python3 - "$file" "$state" "$dir/$id/ncu_$state.csv" >> "$out/counters.jsonl" <<'PY'
import csv, json, sys
file, state, path = sys.argv[1:4]
rows = [r for r in csv.reader(open(path)) if r]
head = next((i for i, r in enumerate(rows) if "Kernel Name" in r), None)
rec = {"file": file, "state": state}
if head is None or len(rows) < head + 3:
    rec["error"] = "no ncu row"
else:
    names, units, vals = rows[head], rows[head + 1], rows[head + 2]
    for n, u, v in zip(names, units, vals):
        if n.split("__")[0] in ("gpu", "gpc", "dram", "lts"):
            try:
                rec[n] = float(v.replace(",", ""))
            except ValueError:
                rec[n] = v
            rec.setdefault("units", {})[n] = u
print(json.dumps(rec))
PY
    cat "$dir/$id/ncu_$state.csv" >> "$csv"
  done
done < "$dir/manifest.txt"
gzip -9f "$csv"
echo "gpu_counters: $(wc -l < "$out/counters.jsonl") profiles in $out/counters.jsonl" | tee -a "$log"
