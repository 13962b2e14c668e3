# Runs KILN with MODE's export option into OUT, then CHECK validates OUT,
# including the JIT's links between events (--jit). No disk cache
# (KILN_CACHE_DIR=), so kernels compile and their output_code is recorded;
# compiled before the first run (KILN_ASYNC_COMPILE=0), so graphs run their
# fused kernels however loaded the machine is.
if(MODE STREQUAL "chrome")
  set(opt --trace)
else()
  set(opt --record)
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env KILN_CACHE_DIR= KILN_ASYNC_COMPILE=0 ${KILN} run ${opt} ${OUT} ${SCRIPT}
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "kiln run ${opt} exited ${rc}:\n${err}")
endif()
if(MODE STREQUAL "chrome")
  execute_process(COMMAND ${CHECK} chrome ${OUT} --jit RESULT_VARIABLE rc)
else()
  execute_process(COMMAND ${CHECK} kilntrace ${OUT} ${SCRIPT} --jit RESULT_VARIABLE rc)
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the exported ${MODE} trace failed its checks")
endif()
