# Writes OUT (a C++ header defining kTmasimVersion) from `git describe` of SRC, at build time and
# only when the text changes, so that `tmasim --version` and every output name the commit built.
execute_process(COMMAND git -C "${SRC}" describe --always --dirty --tags
                OUTPUT_VARIABLE describe OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR describe STREQUAL "")
  set(describe "unknown (not a git checkout)")
endif()
set(text "constexpr const char* kTmasimVersion = \"${describe}\";\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE "${OUT}" "${text}")
endif()
