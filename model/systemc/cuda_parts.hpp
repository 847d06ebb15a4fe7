// Parts of the program `tmasim cuda` emits that do not depend on the scenario's steps, or
// depend on one step alone: the host's timed runs and result file, a wgmma of one shape.
#pragma once
#include <cstddef>
#include <ostream>
#include <string>

#include "scenario.hpp"

namespace tmasim::sc {

void emit_host_runs(std::ostream& os, size_t maps);
void emit_host_results(std::ostream& os);
// The host code encoding tensor map k (`tm<k>`) with the driver, failing with the tensor's name.
void emit_encode(std::ostream& os, const TensorMap& m, size_t k, const std::string& name);

// The device function issuing one wgmma.mma_async of an `mma` step's shape, type and A source.
std::string wgmma_function(const StepSpec& s);
void emit_wgmma_function(std::ostream& os, const StepSpec& s);
// A shared-memory descriptor's layout type (bits 62-63) of a K-major swizzled operand.
inline int descriptor_layout(Swizzle s) { return s == Swizzle::b128 ? 1 : s == Swizzle::b64 ? 2 : 3; }

}  // namespace tmasim::sc
