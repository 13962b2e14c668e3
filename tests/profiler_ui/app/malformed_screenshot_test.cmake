# kiln-inspect given a garbage file and a truncated one, under xvfb-run:
# --screenshot must exit 3 (the trace could not be read), not crash, and
# still write a non-blank PNG showing the error banner. Invoked by CTest with
#   -DXVFB_RUN= -DINSPECT= -DPNG_CHECK= -DFIXTURE= -DOUT_DIR=
include(${CMAKE_CURRENT_LIST_DIR}/xvfb_prelude.cmake)
string(REPEAT "garbage\n" 500 garbage)
file(WRITE "${OUT_DIR}/garbage.kilntrace" "${garbage}")
file(SIZE "${FIXTURE}" size)
math(EXPR half "${size} / 2")  # half the bytes: cut mid-frame
execute_process(COMMAND head -c ${half} "${FIXTURE}" OUTPUT_FILE "${OUT_DIR}/cut.kilntrace" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "could not write the truncated fixture")
endif()
foreach(name garbage cut)
  set(png "${OUT_DIR}/${name}.png")
  execute_process(COMMAND "${XVFB_RUN}" -a -f "${OUT_DIR}/Xauthority" "${INSPECT}" --screenshot "${png}" --view summary
                          "${OUT_DIR}/${name}.kilntrace"
                  RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 3)
    message(FATAL_ERROR "kiln-inspect on ${name}.kilntrace exited ${rc}, want 3 (trace unreadable):\n${err}")
  endif()
  if(NOT err MATCHES "kiln-inspect: ")
    message(FATAL_ERROR "kiln-inspect on ${name}.kilntrace printed no error:\n${err}")
  endif()
  execute_process(COMMAND "${PNG_CHECK}" "${png}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the banner screenshot ${png} is missing or blank")
  endif()
endforeach()
