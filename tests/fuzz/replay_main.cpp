// Runs a fuzz target over files and directories of inputs without libFuzzer (any compiler):
// the seed corpora and the regressions a fuzzing run found, replayed by ctest.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  int n = 0;
  auto run = [&](const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    ++n;
  };
  for (int i = 1; i < argc; ++i) {
    if (fs::is_directory(argv[i])) {
      for (auto& e : fs::recursive_directory_iterator(argv[i]))
        if (e.is_regular_file()) run(e.path());
    } else {
      run(argv[i]);
    }
  }
  std::printf("replayed %d inputs without a crash\n", n);
  return n > 0 ? 0 : 1;
}
