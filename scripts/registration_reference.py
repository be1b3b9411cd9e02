#!/usr/bin/python3
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
"""Reference registrations for `latformer registration` (our analogue of the paper's Table 5).

Reads the windows that `latformer registration --export DIR` wrote (DIR/pairs.csv and the 16-bit PNGs
<id>_a.png, <id>_b.png) and registers every pair with two classical methods, on the windows before
quantization:

  phase_correlation  scikit-image's phase_cross_correlation (Fourier-based, whole-pixel)
  sift               OpenCV's SIFT keypoints on the windows upsampled 4x, Lowe's ratio test (0.75), the
                     median displacement of the matches, rounded; no match is a failure

under the two conditions of the Go command: "raw" registers B against A itself (two modalities), "oracle"
against T(A), the first modality passed through the same intensity transform T (a perfect modality
translation). Success is the paper's: the distance between the estimated and the true translation
divided by the window side, below 2%.

Needs Debian's python3-skimage and python3-opencv (run with /usr/bin/python3, not a virtualenv that
lacks them). Usage:
    /usr/bin/python3 scripts/registration_reference.py --pairs DIR --out results/registration_reference.csv
"""
import argparse
import csv
import math
import os
import sys

import cv2
import numpy as np
from skimage.registration import phase_cross_correlation

MODALITIES = {
    "parabola": lambda v: 4 * v * (1 - v),
    "invert": lambda v: 1 - v,
    "identity": lambda v: v,
}


def load(path):
    img = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if img is None:
        sys.exit(f"cannot read {path}")
    return img.astype(np.float64) / 65535.0


def phase(a, b):
    """Translation t with b(x) ~ a(x - t): phase_cross_correlation returns the shift that registers b
    with a, which is -t."""
    shift, _, _ = phase_cross_correlation(a, b)
    return -int(round(shift[0])), -int(round(shift[1]))


def sift(a, b, sift_detector, up=4):
    def prep(x):
        x = cv2.resize((np.clip(x, 0, 1) * 255).astype(np.uint8), None, fx=up, fy=up, interpolation=cv2.INTER_CUBIC)
        return x
    ka, da = sift_detector.detectAndCompute(prep(a), None)
    kb, db = sift_detector.detectAndCompute(prep(b), None)
    if da is None or db is None or len(ka) < 2 or len(kb) < 2:
        return None
    matches = cv2.BFMatcher().knnMatch(da, db, k=2)
    good = [m for m, n in (p for p in matches if len(p) == 2) if m.distance < 0.75 * n.distance]
    if not good:
        return None
    d = np.array([[kb[m.trainIdx].pt[1] - ka[m.queryIdx].pt[1], kb[m.trainIdx].pt[0] - ka[m.queryIdx].pt[0]] for m in good]) / up
    dr, dc = np.median(d, axis=0)
    return int(round(dr)), int(round(dc))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", required=True, help="directory written by latformer registration --export")
    ap.add_argument("--out", required=True, help="CSV to write: id, condition, method, est_dr, est_dc, rel_error, success")
    ap.add_argument("--conditions", default="raw,oracle")
    args = ap.parse_args()
    detector = cv2.SIFT_create()
    rows = []
    with open(os.path.join(args.pairs, "pairs.csv")) as f:
        pairs = list(csv.DictReader(f))
    totals = {}
    for p in pairs:
        pid, w = int(p["id"]), int(p["window"])
        dr, dc = int(p["dr"]), int(p["dc"])
        a = load(os.path.join(args.pairs, f"{pid:03d}_a.png"))
        b = load(os.path.join(args.pairs, f"{pid:03d}_b.png"))
        t = MODALITIES[p["modality"]]
        for cond in args.conditions.split(","):
            src = a if cond == "raw" else t(a)
            for method, est in (("phase_correlation", phase(src, b)), ("sift", sift(src, b, detector))):
                if est is None:
                    err, ok, est = float("inf"), False, ("", "")
                else:
                    err = math.hypot((est[0] - dr) / w, (est[1] - dc) / w)
                    ok = err < 0.02
                rows.append([pid, cond, method, est[0], est[1], f"{err:.4f}", ok])
                s = totals.setdefault((cond, method), [0, 0])
                s[0] += ok
                s[1] += 1
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "condition", "method", "est_dr", "est_dc", "rel_error", "success"])
        w.writerows(rows)
    for (cond, method), (ok, n) in sorted(totals.items()):
        print(f"{cond:7s} {method:18s} {ok}/{n} = {100 * ok / n:.1f}%")


if __name__ == "__main__":
    main()
