"""Tests that run symphony through the inference engines' own parsing code (vLLM, SGLang). They
need the engines, which are never a dependency: run them from the peers venv that
`bench/peers/install.sh` builds (README, "Serving with vLLM or SGLang"); elsewhere they skip."""
