# Tests of kiln-inspect's app: ImGui frame smoke tests with no window, and the
# real program under xvfb-run (screenshots, malformed input, live, window).
#
# inspect_app_tests    GoogleTest: every view drawn headless (no window, no
#                      backends) over the fixtures; IM_ASSERT throws; the
#                      strings views submit are checked; malformed files.
# inspect_screenshots  the real kiln-inspect under xvfb-run: a PNG per view of
#                      graph_breaks_demo, non-blank and pairwise different.
# inspect_malformed_screenshot  garbage / truncated file: exit 3, banner PNG.
# inspect_live_sessions  spawn and --listen with a replayed stream; a broken one.
# inspect_window       the interactive window: SIGTERM closes it, settings saved.
# inspect_cli_*        --help and usage errors.
# make_big_trace       not a test: writes the 1M-event trace for the timeline
#                      frame benchmark (docs/inspector.md, "Headless").
set(KILN_INSPECT_FIXTURE_DIR ${CMAKE_CURRENT_SOURCE_DIR}/fixtures)
set(KILN_INSPECT_APP_TEST_DIR ${CMAKE_CURRENT_SOURCE_DIR}/app)

add_executable(inspect_app_tests ${KILN_INSPECT_APP_TEST_DIR}/view_smoke_test.cpp
                                 ${KILN_INSPECT_APP_TEST_DIR}/options_test.cpp
                                 ${KILN_INSPECT_APP_TEST_DIR}/imgui_assert_hook.cpp)
target_link_libraries(inspect_app_tests PRIVATE kiln_inspect_ui GTest::gtest GTest::gtest_main)
target_compile_definitions(inspect_app_tests PRIVATE KILN_INSPECT_FIXTURES="${KILN_INSPECT_FIXTURE_DIR}")
include(GoogleTest)
gtest_discover_tests(inspect_app_tests TEST_PREFIX "inspect_app." DISCOVERY_TIMEOUT 60)

add_executable(png_check ${KILN_INSPECT_APP_TEST_DIR}/png_check.cpp)
target_link_libraries(png_check PRIVATE kiln_flags kiln_stb)

add_executable(make_big_trace ${KILN_INSPECT_APP_TEST_DIR}/make_big_trace.cpp)
target_link_libraries(make_big_trace PRIVATE kiln_traces)

# A missing xvfb-run makes these tests fail with the reason, never skip.
find_program(KILN_XVFB_RUN xvfb-run)
if(NOT KILN_XVFB_RUN)
  set(KILN_XVFB_RUN "")
endif()
add_test(NAME inspect_screenshots
         COMMAND ${CMAKE_COMMAND} -DXVFB_RUN=${KILN_XVFB_RUN} -DINSPECT=$<TARGET_FILE:kiln-inspect>
                 -DPNG_CHECK=$<TARGET_FILE:png_check>
                 -DFIXTURE=${KILN_INSPECT_FIXTURE_DIR}/graph_breaks_demo.kilntrace
                 -DCOMPARE=${KILN_INSPECT_FIXTURE_DIR}/graph_breaks_short.kilntrace
                 -DOUT_DIR=${CMAKE_CURRENT_BINARY_DIR}/screenshots
                 -DVIEWS=summary,timeline,breaks,recompiles,kernels,graphs,provenance,payback,compare
                 -P ${KILN_INSPECT_APP_TEST_DIR}/screenshot_test.cmake)
add_test(NAME inspect_malformed_screenshot
         COMMAND ${CMAKE_COMMAND} -DXVFB_RUN=${KILN_XVFB_RUN} -DINSPECT=$<TARGET_FILE:kiln-inspect>
                 -DPNG_CHECK=$<TARGET_FILE:png_check>
                 -DFIXTURE=${KILN_INSPECT_FIXTURE_DIR}/graph_breaks_demo.kilntrace
                 -DOUT_DIR=${CMAKE_CURRENT_BINARY_DIR}/malformed
                 -P ${KILN_INSPECT_APP_TEST_DIR}/malformed_screenshot_test.cmake)
set_tests_properties(inspect_screenshots inspect_malformed_screenshot PROPERTIES TIMEOUT 600)

add_test(NAME inspect_cli_help COMMAND kiln-inspect --help)
set_tests_properties(inspect_cli_help PROPERTIES PASS_REGULAR_EXPRESSION "--listen HOST:PORT.*--screenshot")
add_test(NAME inspect_cli_usage_error COMMAND kiln-inspect --size 12 x.kilntrace)
set_tests_properties(inspect_cli_usage_error PROPERTIES WILL_FAIL TRUE)
add_test(NAME inspect_cli_unknown_view COMMAND kiln-inspect --view nope x.kilntrace)
set_tests_properties(inspect_cli_unknown_view PROPERTIES PASS_REGULAR_EXPRESSION "unknown --view 'nope'; views: summary")

# Live sessions: spawn and listen, with replay_stream as the writer.
add_executable(replay_stream ${KILN_INSPECT_APP_TEST_DIR}/replay_stream.cpp)
target_link_libraries(replay_stream PRIVATE kiln_traces)
add_test(NAME inspect_live_sessions
         COMMAND ${CMAKE_COMMAND} -DXVFB_RUN=${KILN_XVFB_RUN} -DINSPECT=$<TARGET_FILE:kiln-inspect>
                 -DREPLAY=$<TARGET_FILE:replay_stream> -DPNG_CHECK=$<TARGET_FILE:png_check>
                 -DFIXTURE=${KILN_INSPECT_FIXTURE_DIR}/graph_breaks_demo.kilntrace
                 -DOUT_DIR=${CMAKE_CURRENT_BINARY_DIR}/live
                 -P ${KILN_INSPECT_APP_TEST_DIR}/live_test.cmake)
set_tests_properties(inspect_live_sessions PROPERTIES TIMEOUT 600)

# The interactive window: runs, closes on SIGTERM, saves its settings.
add_test(NAME inspect_window
         COMMAND ${CMAKE_COMMAND} -DXVFB_RUN=${KILN_XVFB_RUN} -DINSPECT=$<TARGET_FILE:kiln-inspect>
                 -DFIXTURE=${KILN_INSPECT_FIXTURE_DIR}/graph_breaks_demo.kilntrace
                 -DOUT_DIR=${CMAKE_CURRENT_BINARY_DIR}/window
                 -P ${KILN_INSPECT_APP_TEST_DIR}/window_test.cmake)
set_tests_properties(inspect_window PROPERTIES TIMEOUT 300)

# Under -DKILN_SANITIZE=ON the xvfb tests keep ASan and UBSan but not
# LeakSanitizer: Mesa's llvmpipe allocates from its JIT-compiled shader code
# and never frees it, which LSan reports as leaks from "<unknown module>"
# that no suppression can name. Our code's leaks are covered by
# inspect_app_tests, which runs every view without GL.
if(KILN_SANITIZE)
  set_tests_properties(inspect_screenshots inspect_malformed_screenshot inspect_live_sessions inspect_window
                       PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
endif()
