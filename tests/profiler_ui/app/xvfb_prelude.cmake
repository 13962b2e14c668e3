# Shared start of the xvfb-run test scripts: fail (never skip) without
# xvfb-run, start from an empty OUT_DIR, and give xvfb-run our own X
# authority file, so it has no temporary directory to remove (that cleanup
# fails now and then and turns a pass into exit 5). Include with XVFB_RUN and
# OUT_DIR set.
if(NOT XVFB_RUN)
  message(FATAL_ERROR "xvfb-run was not found when configuring: the screenshot tests need it "
                      "(Debian: apt-get install xvfb xauth), then re-run cmake. Not skipping.")
endif()
file(REMOVE_RECURSE "${OUT_DIR}")
file(MAKE_DIRECTORY "${OUT_DIR}")
file(TOUCH "${OUT_DIR}/Xauthority")
