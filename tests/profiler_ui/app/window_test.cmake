# The interactive window (GLFW platform backend, real swap chain) under
# xvfb-run: it runs for 5 s, SIGTERM closes it like its close button, and the
# ini file it leaves holds the settings (last file, view); then the same with
# no file (the open / connect panel). Invoked by CTest with
#   -DXVFB_RUN= -DINSPECT= -DFIXTURE= -DOUT_DIR=
include(${CMAKE_CURRENT_LIST_DIR}/xvfb_prelude.cmake)
execute_process(COMMAND "${XVFB_RUN}" -a -f "${OUT_DIR}/Xauthority" timeout --preserve-status -s TERM 5
                        "${INSPECT}" --ini "${OUT_DIR}/settings/kiln-inspect.ini" --view kernels "${FIXTURE}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "kiln-inspect's window did not close cleanly on SIGTERM (${rc}):\n${out}\n${err}")
endif()
file(READ "${OUT_DIR}/settings/kiln-inspect.ini" ini)
if(NOT ini MATCHES "\\[KilnInspect\\]\\[State\\]" OR NOT ini MATCHES "LastFile=[^\n]*graph_breaks_demo.kilntrace"
   OR NOT ini MATCHES "View=kernels")
  message(FATAL_ERROR "the ini file lacks the settings:\n${ini}")
endif()
# The first way in: no file, the window with the open / connect panel; it
# must run until SIGTERM like the other (not return at once).
string(TIMESTAMP t0 "%s")
execute_process(COMMAND "${XVFB_RUN}" -a -f "${OUT_DIR}/Xauthority" timeout --preserve-status -s TERM 3
                        "${INSPECT}" --ini "${OUT_DIR}/empty/kiln-inspect.ini"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "kiln-inspect with no file did not run until SIGTERM (${rc}):\n${out}\n${err}")
endif()
string(TIMESTAMP t1 "%s")
math(EXPR ran "${t1} - ${t0}")
if(ran LESS 2)
  message(FATAL_ERROR "kiln-inspect with no file returned after ${ran} s instead of waiting for the user:\n${err}")
endif()
