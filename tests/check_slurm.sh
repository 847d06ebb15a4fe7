#!/usr/bin/env bash
# tmasim sweep --slurm DIR / --merge DIR without Slurm: the array's tasks run here one by one
# (SLURM_ARRAY_TASK_ID=i bash DIR/sweep.sbatch), one is left out, and the merge is the local
# sweep's CSV but for that point's row, which names the missing task.
#   check_slurm.sh TMASIM WORKDIR
set -euo pipefail
tmasim=$1; work=$2
rm -rf "$work"; mkdir -p "$work"
top=$(cd "$(dirname "$0")/.." && pwd)
ex=$top/examples/gemm_pipeline.json
axes=(--set STAGES=2,3,4 --set smem.banks=32,64 --no-plot)
"$tmasim" sweep "$ex" "${axes[@]}" -o "$work/local" > /dev/null
"$tmasim" sweep "$ex" "${axes[@]}" --slurm "$work/array" | grep -q "sbatch $work/array/sweep.sbatch"
grep -q "#SBATCH --array=0-5" "$work/array/sweep.sbatch"
for i in 0 1 2 3 4 5; do SLURM_ARRAY_TASK_ID=$i bash "$work/array/sweep.sbatch" > "$work/array/logs/$i.log" 2>&1; done
"$tmasim" sweep --merge "$work/array" -o "$work/merged" --no-plot > /dev/null
cmp "$work/local.csv" "$work/merged.csv"
rm "$work/array/points/000004.csv"
if "$tmasim" sweep --merge "$work/array" -o "$work/partial" --no-plot > "$work/partial.log"; then
  echo "a merge with a task missing succeeded"; exit 1
fi
grep -q "array task 4 left no result" "$work/partial.csv"
[ "$(wc -l < "$work/partial.csv")" = 7 ]
echo "slurm sweep: 6 tasks merged to the local sweep's CSV; a missing task named; 0 failed"
