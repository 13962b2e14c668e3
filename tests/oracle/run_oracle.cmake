# One oracle test: runs `KILN run SCRIPT` from the script's directory, fails
# on a nonzero exit (showing stderr), writes stdout to ACTUAL and compares it
# with EXPECTED using OUTCMP. MODE: auto (default JIT), off (--jit=off), all
# (every function and loop a JIT region from its first run, its kernels
# compiled before that run: with background compilation, which runs went
# through the reference executor would depend on the machine's speed, and
# its float results differ from the compiled kernels' in the last bits), cuda (every
# tensor on the CUDA device: --device cuda; the emulated device unless
# REAL_CUDA is on or KILN_ORACLE_REAL_CUDA is set; the
# device suffixes of tensor reprs are dropped before comparing).
# NVRTC=ON: every kernel the run generates must also compile as CUDA C
# (KILN_NVRTC_CHECK).
get_filename_component(dir ${SCRIPT} DIRECTORY)
get_filename_component(file ${SCRIPT} NAME)
set(jit --jit=auto)
if(MODE STREQUAL "off")
  set(jit --jit=off)
elseif(MODE STREQUAL "all")
  set(ENV{KILN_HOT_CALLS} 0)
  set(ENV{KILN_HOT_LOOPS} 0)
  set(ENV{KILN_ASYNC_COMPILE} 0)
elseif(MODE STREQUAL "cuda")
  set(jit --jit=auto --device cuda)
  if(NOT REAL_CUDA AND NOT DEFINED ENV{KILN_ORACLE_REAL_CUDA})
    set(ENV{KILN_EMULATE_CUDA} 1)
  endif()
endif()
# REAL_CUDA: the oracle_gpu tests, which need a GPU; without one they say so
# and CTest reports them skipped by name (SKIP_REGULAR_EXPRESSION).
if(REAL_CUDA)
  execute_process(COMMAND ${KILN} run ${PROBE} OUTPUT_VARIABLE has_gpu ERROR_VARIABLE probe_err)
  if(NOT has_gpu MATCHES "True")
    message("SKIPPED: no CUDA device (torch.cuda.is_available() is ${has_gpu}) ${probe_err}")
    return()
  endif()
endif()
if(NVRTC)
  set(ENV{KILN_NVRTC_CHECK} 1)
endif()
execute_process(COMMAND ${KILN} run ${jit} ${file} WORKING_DIRECTORY ${dir}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(MODE STREQUAL "cuda")
  string(REGEX REPLACE ", device='cuda:0'" "" out "${out}")
endif()
file(WRITE ${ACTUAL} "${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "kiln run ${file} exited with ${rc}\n--- stderr ---\n${err}\n--- stdout (in ${ACTUAL}) ---\n${out}")
endif()
execute_process(COMMAND ${OUTCMP} ${EXPECTED} ${ACTUAL} OUTPUT_VARIABLE diff ERROR_VARIABLE diff RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${file}: output does not match ${EXPECTED}\n${diff}(full output in ${ACTUAL})")
endif()
