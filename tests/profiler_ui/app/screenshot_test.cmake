# Runs the real kiln-inspect under xvfb-run (Mesa software GL): one
# --screenshot per view of a fixture, then png_check that every PNG is
# non-blank and that they differ pairwise. Invoked by CTest with
#   -DXVFB_RUN= -DINSPECT= -DPNG_CHECK= -DFIXTURE= -DCOMPARE= -DOUT_DIR= -DVIEWS=a,b,c
include(${CMAKE_CURRENT_LIST_DIR}/xvfb_prelude.cmake)
string(REPLACE "," ";" VIEWS "${VIEWS}")
set(pngs "")
foreach(view IN LISTS VIEWS)
  set(png "${OUT_DIR}/inspect_${view}.png")
  execute_process(COMMAND "${XVFB_RUN}" -a -f "${OUT_DIR}/Xauthority" "${INSPECT}" --screenshot "${png}" --view ${view} --size 1280x800
                          --compare "${COMPARE}" "${FIXTURE}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "kiln-inspect --screenshot --view ${view} failed (${rc}):\n${out}\n${err}")
  endif()
  list(APPEND pngs "${png}")
endforeach()
execute_process(COMMAND "${PNG_CHECK}" ${pngs} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "png_check rejected the screenshots in ${OUT_DIR}")
endif()
