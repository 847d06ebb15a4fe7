// Fuzz target: what the command line reads and draws without a simulation: `explain`'s tensor
// map (inline JSON and flags), its instruction, the placement of every element and the picture;
// `sweep`'s settings. Input: lines of "flag value" (flags as the command line names them, without
// the dashes); a map given as a file name is not read here.
#include <sstream>
#include <string>

#include "explain_core.hpp"
#include "cli_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tmasim;
  using namespace tmasim::cli;
  if (size > 65536) return 0;
  MapOptions map;
  InstructionOptions ins;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::string line;
  try {
    while (std::getline(in, line)) {
      const size_t sp = line.find(' ');
      const std::string flag = line.substr(0, sp), value = sp == std::string::npos ? "" : line.substr(sp + 1);
      if (flag == "map" && !value.empty() && value[0] == '{') map.map = value;
      else if (flag == "mode") map.mode = value;
      else if (flag == "dtype") map.dtype = value;
      else if (flag == "dims") map.dims = value;
      else if (flag == "strides") map.strides = value;
      else if (flag == "box") map.box = value;
      else if (flag == "element-strides") map.element_strides = value;
      else if (flag == "swizzle") map.swizzle = value;
      else if (flag == "interleave") map.interleave = value;
      else if (flag == "oob-fill") map.oob_fill = value;
      else if (flag == "global-address") map.global_address = value;
      else if (flag == "coords") ins.coords = value;
      else if (flag == "offsets") ins.offsets = value;
      else if (flag == "op") ins.op = value;
      else if (flag == "reduce-op") ins.reduce_op = value;
      else if (flag == "smem-offset") ins.smem_offset = value;
      else if (flag == "set") (void)parse_axis(value);
    }
    const TensorMap m = build_map(map);
    if (validate(m)) return 0;
    const TmaInstruction i = build_instruction(ins);
    try {
      check_instruction(m, i);
    } catch (const Fault&) {
      return 0;
    }
    if (i.op == Op::prefetch || i.smem_offset + m.smem_footprint() > kSmemPerCta) return 0;
    const Layout l = place(m, i);
    const Picture pic = draw_layout(m, i, l);
    (void)pic.svg();
    if (l.elements.size() <= 4096) (void)pic.png();
  } catch (const Error&) {
  }
  return 0;
}
