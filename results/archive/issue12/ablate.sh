#!/bin/bash
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
# Ablations of the default hyperparameters on the 31 small dev tasks, each change off in turn (with the
# defaults since issue 12: 3 restarts up to 81 cells, translation gates at sigmoid(-2), keep black, zero
# fill). Run from the root of the checkout after `make build`; about 40 minutes on 2 cores.
set -e
ids=$(cat results/archive/issue12/devsmall_ids.txt)
run() { bin/latformer arc --tasks "$ids" --workers 2 --quiet --set "$2" --out "results/archive/issue12/devsmall_$1.csv" --resume > "results/archive/issue12/devsmall_$1_run.txt" 2>&1; }
run abl_no_restarts "train_restarts=1"
run abl_no_tinit "expert_translation_gate_init=0"
run abl_no_keepblack "augment_keep_black=false"
run abl_no_zerofill "expert_zero_fill=false"
