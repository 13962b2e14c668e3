# Model-layer unit tests (GoogleTest on recorded fixtures).
