"""`tmasim sweep --dask ADDRESS`: the sweep's points on a Dask cluster's workers, the CSV written
as the local sweep writes it. Exit status 1 when a point failed (its row says why).

    python3 -m tmasim.dask_sweep ADDRESS OUT.csv CONFIG SCENARIO|- KEY=V1,V2 ..."""
import csv
import sys

from . import sweep_csv


def main(argv):
    address, out, config, scenario, *axes = argv
    settings = {}
    for axis in axes:
        key, values = axis.split("=", 1)
        settings[key] = values.split(",")
    from dask.distributed import Client
    with Client(address) as client:
        workers = len(client.scheduler_info()["workers"])
        print(f"  on the Dask cluster at {address}: {workers} workers", flush=True)
        text = sweep_csv(None if scenario == "-" else scenario, settings, config, client)
    with open(out, "w") as f:
        f.write(text)
    failed = sum(1 for row in csv.DictReader(text.splitlines()) if row.get("error"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
