// The Chrome/Perfetto trace of a finished run: a process per SM, a track per CTA thread whose
// steps are slices, and per TMA unit its operations as async slices from issue to completion.
#pragma once
#include "experiment.hpp"

namespace tmasim::sc {

class Gpu;
void write_trace(const Experiment& e, const Gpu& gpu);

}  // namespace tmasim::sc
