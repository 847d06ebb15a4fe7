#include "cuda_text.hpp"

namespace tmasim::sc {

const char* driver_dtype(DType d) {
  switch (d) {
    case DType::u8: return "CU_TENSOR_MAP_DATA_TYPE_UINT8";
    case DType::u16: return "CU_TENSOR_MAP_DATA_TYPE_UINT16";
    case DType::u32: return "CU_TENSOR_MAP_DATA_TYPE_UINT32";
    case DType::s32: return "CU_TENSOR_MAP_DATA_TYPE_INT32";
    case DType::u64: return "CU_TENSOR_MAP_DATA_TYPE_UINT64";
    case DType::s64: return "CU_TENSOR_MAP_DATA_TYPE_INT64";
    case DType::f16: return "CU_TENSOR_MAP_DATA_TYPE_FLOAT16";
    case DType::f32: return "CU_TENSOR_MAP_DATA_TYPE_FLOAT32";
    case DType::f64: return "CU_TENSOR_MAP_DATA_TYPE_FLOAT64";
    case DType::bf16: return "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16";
    case DType::f32_ftz: return "CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ";
    case DType::tf32: return "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32";
    case DType::tf32_ftz: return "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ";
    default: throw Error("tmasim cuda: this element type has no encoding in this program");
  }
}

// User text (the scenario's, a thread's or a stamp's name) is never written raw into the program:
// a newline in a comment would start a line of code, a backslash at its end would splice the next
// line into the comment (so would a "??/" trigraph). In a comment, printable ASCII other than the
// backslash and "?" stays; every other byte is written as \xNN.
std::string comment_text(const std::string& s) {
  static const char* const kHex = "0123456789abcdef";
  std::string out;
  for (char ch : s) {
    const auto u = static_cast<unsigned char>(ch);
    if (u >= 32 && u < 127 && ch != '\\' && ch != '?') {
      out += ch;
    } else {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

// The body of a C string literal whose run-time value is `s` with what JSON would need escaped
// ('"', '\\', control characters) replaced by '_': the result file writes it unescaped. Other
// bytes pass as octal escapes, so the emitted file is ASCII and no trigraph can form.
std::string json_safe_c_literal(const std::string& s) {
  std::string out;
  for (char ch : s) {
    const auto u = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\' || u < 32 || u == 127) {
      out += '_';
    } else if (u < 127 && ch != '?') {
      out += ch;
    } else {
      out += '\\';
      out += static_cast<char>('0' + (u >> 6));
      out += static_cast<char>('0' + ((u >> 3) & 7));
      out += static_cast<char>('0' + (u & 7));
    }
  }
  return out;
}

}  // namespace tmasim::sc
