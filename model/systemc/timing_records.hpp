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
// A cold record starts from the L2 the harness's write flush leaves (L2Start::cold); a warm one
// from clean lines, then the warm-up round. With `issue_from_record`, the issuing thread issues
// at the cadence the record measured (`issue_cycles` over `loads`: the harness's own loop, not
// a program the model's issue costs describe); otherwise, or when the record has no
// `issue_cycles`, at the configuration's issue costs.
Experiment burst_experiment(const Fields& record, const TimingConfig& cfg, std::vector<uint8_t>& global,
                            bool issue_from_record = false);

// A stream: `ctas` CTAs walk tiles through `stages` shared-memory slots, simulated for at most
// `tiles_per_cta` tiles per CTA (the steady state the GPU's long run measures). The harness
// reads its 1 GiB buffer again and again, so L2 holds clean lines (L2Start::cold_clean).
Experiment stream_experiment(const Fields& record, const TimingConfig& cfg, std::vector<uint8_t>& global,
                             int tiles_per_cta);

}  // namespace tmasim::sc
