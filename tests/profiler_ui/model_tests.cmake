# Model-layer unit tests (GoogleTest on recorded fixtures).
file(GLOB KILN_INSPECT_MODEL_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/model/*.cpp)
add_executable(inspect_model_tests ${KILN_INSPECT_MODEL_TEST_SOURCES})
target_link_libraries(inspect_model_tests PRIVATE kiln_inspect_model GTest::gtest_main)
target_compile_definitions(inspect_model_tests PRIVATE
  KILN_INSPECT_FIXTURES="${CMAKE_CURRENT_SOURCE_DIR}/fixtures"
  KILN_TRACE_CORPUS="${PROJECT_SOURCE_DIR}/tests/traces/corpus")
include(GoogleTest)
gtest_discover_tests(inspect_model_tests TEST_PREFIX "inspect_model." DISCOVERY_TIMEOUT 60)
