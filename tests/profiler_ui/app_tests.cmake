# ImGui frame smoke tests and the xvfb screenshot test.
