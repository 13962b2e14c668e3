# Runs KILN with ARGS (a |-separated list) in DIR and checks its exit status is RC and
# that stderr matches ERR (a regex) and stdout matches OUT, when given.
string(REPLACE "|" ";" ARGS "${ARGS}")
execute_process(COMMAND ${KILN} ${ARGS} WORKING_DIRECTORY ${DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL RC)
  message(FATAL_ERROR "exit status ${rc}, want ${RC}\n--- stdout ---\n${out}\n--- stderr ---\n${err}")
endif()
if(DEFINED ERR AND NOT err MATCHES "${ERR}")
  message(FATAL_ERROR "stderr does not match '${ERR}':\n${err}")
endif()
if(DEFINED OUT AND NOT out MATCHES "${OUT}")
  message(FATAL_ERROR "stdout does not match '${OUT}':\n${out}")
endif()
