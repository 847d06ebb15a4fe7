// tma_coverage: the harness's coverage model on a host without a GPU.
//   tma_coverage plan                  the bins the coverage capture's cases aim at, as if
//                                      the GPU answered every case (what the generator sees)
//   tma_coverage report CAPTURE[.gz]   the coverage of a capture's records (the report the
//                                      capture prints); exit 1 when a reachable bin is empty
#include <zlib.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "coverage_cases.h"

namespace {

bool read_lines(const char* path, std::vector<std::string>* lines) {
  gzFile f = gzopen(path, "rb");
  if (!f) return false;
  std::string cur;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) {
    for (int i = 0; i < n; ++i) {
      if (buf[i] == '\n') {
        if (!cur.empty()) lines->push_back(cur);
        cur.clear();
      } else {
        cur += buf[i];
      }
    }
  }
  if (!cur.empty()) lines->push_back(cur);
  const bool ok = n == 0;
  gzclose(f);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ref;
  if (argc == 2 && !strcmp(argv[1], "plan")) {
    std::vector<Case> cs = make_coverage_cases();
    std::vector<std::string> records;
    for (const Case& c : cs) records.push_back("{\"name\":\"" + c.name + "\",\"encode_result\":\"CUDA_SUCCESS\",\"coords\":[]}");
    printf("%zu cases\n", cs.size());
    return coverage_report(cs, records, stdout) ? 1 : 0;
  }
  if (argc == 3 && !strcmp(argv[1], "report")) {
    std::vector<std::string> records;
    if (!read_lines(argv[2], &records)) {
      fprintf(stderr, "tma_coverage: cannot read %s\n", argv[2]);
      return 2;
    }
    return coverage_report(make_coverage_cases(), records, stdout) ? 1 : 0;
  }
  fprintf(stderr, "usage: tma_coverage plan | report CAPTURE.jsonl[.gz]\n");
  return 2;
}
