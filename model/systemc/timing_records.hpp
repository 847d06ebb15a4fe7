// Timing records of golden-case.md section 3 as timing experiments: `tmasim calibrate` and
// its fuzz target read them here. Every field is range-checked (Fields); a record the model
// cannot replay is an Error naming the file, line and field.
#pragma once
#include <vector>

#include "simulation.hpp"
#include "tmasim/json_input.hpp"

namespace tmasim::sc {

// A burst: CTA 0 issues `loads` copies back to back on one barrier (after an identical
// warm-up round for warm L2); multicast clusters' other CTAs only wait for their copy.
Experiment burst_experiment(const Fields& record, const TimingConfig& cfg, std::vector<uint8_t>& global);

// A stream: `ctas` CTAs walk tiles through `stages` shared-memory slots, simulated for at most
// `tiles_per_cta` tiles per CTA (the steady state the GPU's long run measures).
Experiment stream_experiment(const Fields& record, const TimingConfig& cfg, std::vector<uint8_t>& global,
                             int tiles_per_cta);

}  // namespace tmasim::sc
