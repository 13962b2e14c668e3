# The live ways in, end to end under xvfb-run, with replay_stream standing in
# for `kiln run --stream` (it sends a recorded session in small pieces):
#   spawn:  kiln-inspect --screenshot -- replay_stream run FIXTURE
#   listen: kiln-inspect --screenshot --listen 127.0.0.1:PORT, the writer
#           started beside it (execute_process runs both at once)
#   broken: a writer that dies mid-stream: exit 3 and the banner, no hang
# Each PNG is checked non-blank. Invoked by CTest with
#   -DXVFB_RUN= -DINSPECT= -DREPLAY= -DPNG_CHECK= -DFIXTURE= -DOUT_DIR=
include(${CMAKE_CURRENT_LIST_DIR}/xvfb_prelude.cmake)

function(check_png png)
  execute_process(COMMAND "${PNG_CHECK}" "${png}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${png} is missing or blank")
  endif()
endfunction()

execute_process(COMMAND "${XVFB_RUN}" -a -f "${OUT_DIR}/Xauthority" "${INSPECT}" --screenshot "${OUT_DIR}/spawn.png" --view breaks
                        -- "${REPLAY}" run "${FIXTURE}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 200)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "kiln-inspect -- replay_stream run failed (${rc}):\n${out}\n${err}")
endif()
check_png("${OUT_DIR}/spawn.png")

string(RANDOM LENGTH 4 ALPHABET 0123456789 r)
math(EXPR port "20000 + ${r}")
execute_process(COMMAND "${XVFB_RUN}" -a -f "${OUT_DIR}/Xauthority" "${INSPECT}" --screenshot "${OUT_DIR}/listen.png" --view summary
                        --listen 127.0.0.1:${port}
                COMMAND "${REPLAY}" --stream 127.0.0.1:${port} "${FIXTURE}"
                RESULTS_VARIABLE rcs OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 200)
if(NOT rcs STREQUAL "0;0")
  message(FATAL_ERROR "kiln-inspect --listen 127.0.0.1:${port} with a writer failed (${rcs}):\n${out}\n${err}")
endif()
check_png("${OUT_DIR}/listen.png")

execute_process(COMMAND "${XVFB_RUN}" -a -f "${OUT_DIR}/Xauthority" "${INSPECT}" --screenshot "${OUT_DIR}/broken.png" --view timeline
                        -- "${REPLAY}" run --cut 50000 "${FIXTURE}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 200)
if(NOT rc EQUAL 3)
  message(FATAL_ERROR "a stream cut short: kiln-inspect exited ${rc}, want 3 with the banner:\n${out}\n${err}")
endif()
check_png("${OUT_DIR}/broken.png")
