#!/usr/bin/env python3
"""Puts a user's own consumer code in place of every `read` of programs `tmasim cuda` emitted
(scripts/gen_user_probe.py; tests/golden/user_probe/README.md).

The emitted read of a 128x64 fp16 tile with 128B swizzle is an unrolled run of 32 ldmatrix.x4
whose results are only folded into a checksum. The user's code reads the same addresses, but as
hand-written kernels of the Ampere style do: a rolled loop over run-time addresses, each fragment
fed at once into an mma.sync.m16n8k16 (f16 in, f32 accumulators in registers) that depends on the
one before. The harness around it (timing, L2 states, stamps, the producer) stays the emitter's.

    user_consumer.py EMIT_DIR     (gpu_scenarios.sh emit's directory; edits each NNNN/scenario.cu)"""
import os
import re
import sys

USER_READ = """{
  const uint32_t base = (uint32_t)(%s);
  const uint32_t b0 = 0x3c003c00u ^ (uint32_t)lane, b1 = 0x3c003c00u;  // a B fragment of halves
  float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
#pragma unroll 1
  for (int i = 0; i < 32; ++i) {  // the tile's 8 x 4 blocks of 16x16
    const int r = (i >> 2) * 16 + lane %% 16, col = (i & 3) * 16 + (lane / 16) * 8;
    uint32_t a = base + (uint32_t)r * 128u + (uint32_t)col * 2u;
    a ^= (a & 896u) >> 3;  // the 128B swizzle
    uint32_t x0, x1, x2, x3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%%0, %%1, %%2, %%3}, [%%4];"
                 : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(smem + a) : "memory");
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%%0, %%1, %%2, %%3}, {%%4, %%5, %%6, %%7}, "
                 "{%%8, %%9}, {%%0, %%1, %%2, %%3};"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                 : "r"(x0), "r"(x1), "r"(x2), "r"(x3), "r"(b0), "r"(b1));
  }
  sink ^= __float_as_uint(d0 + d1 + d2 + d3);
}
"""

# The emitted read block: "{", the base, the unrolled loops, the ldmatrix, two closing braces.
EMITTED_READ = re.compile(
    r"\{\n\s*const uint32_t base = \(uint32_t\)\((?P<base>.*?)\);\n"
    r"(?:(?!\{\n\s*const uint32_t base).)*?sink \^= ldmatrix_x4\(smem \+ a\);\n\s*\}\n\s*\}\n", re.S)


def splice(path):
    text = open(path).read()
    if "for (int r0 = 0; r0 < 128; r0 += 16)" not in text or "(a & 896u) >> 3" not in text:
        raise SystemExit(f"{path}: not a 128x64 read with 128B swizzle: the user's code is written for that tile")
    new, n = EMITTED_READ.subn(lambda m: USER_READ % m.group("base"), text)
    if n == 0:
        raise SystemExit(f"{path}: no emitted read found")
    open(path, "w").write(new)
    return n


def main(emit_dir):
    total = 0
    for d in sorted(os.listdir(emit_dir)):
        cu = os.path.join(emit_dir, d, "scenario.cu")
        if os.path.isfile(cu):
            total += splice(cu)
    print(f"user_consumer: {total} reads replaced by the user's consumer in {emit_dir}")


if __name__ == "__main__":
    main(sys.argv[1])
