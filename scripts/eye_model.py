"""Trains FaceKit's eye-state network and measures it on people it has not seen.

Run through scripts/train-eye-model, which installs this script's packages (JAX on the CPU,
NumPy, Pillow, ONNX) in a virtual environment of its own and exports the patches first; FaceKit
itself never needs Python.

Data (all from ../shared/data/eyes and smile/, see its README):
- the patches `facekit-train eye-patches` cut with FaceKit's own landmarks (eyes.u8, eyes.csv):
  FOCUS (mahie, soniya), CEW closed faces, GENKI-4K and open-faces;
- eye crops without a face around them, read here and framed like those patches: CEW's 24 x 24
  patches (closed ones belong to the CEW faces, open ones to LFW people), the MRL infrared crops
  of 25 drivers, and the colour close-ups.

Protocols, both reported:
- by person (the one that fits the calibration and the video model): the people of every set are
  split into five folds (each FOCUS person is a fold of her own, so she is judged by a network
  that never saw her; in the sets without identities each photo is a person), and a network
  trained on four folds scores the fifth;
- by set (leave-one-set-out): each set is left out in turn, a network is trained on the others
  and scored on it: how the network holds on a kind of photo, camera or light it never saw.
The by-person held-out logits fit the calibration (Platt scaling, every set and label weighing
the same), which is folded into the shipped network's last layer; that network is trained on
every set but the test split. Writes the network (ONNX) and prints the tables of
docs/accuracy.md.
"""

import argparse
import csv
import math
import os
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from PIL import Image

BASE = 48  # side of an exported training patch: 2.7 eye widths
SIDE = 32  # the network's input: the centre 32 px, 1.8 eye widths
MARGIN = (BASE - SIDE) // 2
MIN_DEVIATION = 4.0  # as fk_patch_classifier_run
SEED = 20261201


# ---- data --------------------------------------------------------------------------------------

class Eyes:
    """Patches (n x BASE x BASE bytes) with, per patch, its set, person, label and source."""

    def __init__(self):
        self.patches, self.sets, self.people, self.open, self.sources = [], [], [], [], []
        self.inter_ocular, self.runtime = [], []

    def add(self, patch, set_name, person, is_open, source, inter_ocular=float("nan"), runtime=float("nan")):
        self.patches.append(patch)
        self.sets.append(set_name)
        self.people.append(person)
        self.open.append(is_open)
        self.sources.append(source)
        self.inter_ocular.append(inter_ocular)
        self.runtime.append(runtime)

    def arrays(self):
        return (np.stack(self.patches).astype(np.uint8), np.array(self.sets), np.array(self.people),
                np.array(self.open, dtype=np.float32), np.array(self.inter_ocular), np.array(self.runtime))


def load_exported(folder, eyes):
    """The patches FaceKit cut (facekit-train eye-patches)."""
    raw = np.fromfile(os.path.join(folder, "eyes.u8"), dtype=np.uint8).reshape(-1, BASE, BASE)
    with open(os.path.join(folder, "eyes.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(raw), "eyes.csv and eyes.u8 disagree"
    for patch, row in zip(raw, rows):
        group = row["group"]
        set_name = "focus-" + group if group in ("mahie", "soniya") else group
        # FOCUS frames are one person's; each photo of the other sets is a person of its own.
        person = group if group in ("mahie", "soniya") else os.path.basename(row["source"])
        runtime = float(row["runtime_probability"]) if row["runtime_probability"] else float("nan")
        eyes.add(patch, set_name, person, row["open"] == "1", row["source"], float(row["inter_ocular"]), runtime)


def framed(image, eye_fraction):
    """A grey crop whose eye spans eye_fraction of its width, as a BASE patch: scaled so that the
    eye is as wide as in FaceKit's patches (SIDE / 1.8 px), centred, edges repeated outward."""
    grey = np.asarray(image.convert("L"), dtype=np.float32)
    h, w = grey.shape
    side = min(h, w)  # a centred square
    grey = grey[(h - side) // 2:(h - side) // 2 + side, (w - side) // 2:(w - side) // 2 + side]
    # The eye spans eye_fraction * side px of the crop and should span SIDE / 1.8 px.
    target = max(4, int(round(SIDE / (1.8 * eye_fraction))))
    small = np.asarray(Image.fromarray(grey.astype(np.uint8)).resize((target, target), Image.BILINEAR))
    if target >= BASE:
        start = (target - BASE) // 2
        return small[start:start + BASE, start:start + BASE]
    before = (BASE - target) // 2
    return np.pad(small, ((before, BASE - target - before), (before, BASE - target - before)), mode="edge")


# How much of each crop's width the eye (corner to corner) spans, judged by eye on samples.
CEW_PATCH_EYE = 0.60
MRL_EYE = 0.55
CLOSEUP_EYE = 0.80


def load_crops(data, eyes):
    root = os.path.join(data, "eyes")
    folder = os.path.join(root, "cew-eye-patches")
    for sub in sorted(os.listdir(folder)):
        is_open = sub.startswith("open")
        for name in sorted(os.listdir(os.path.join(folder, sub))):
            image = Image.open(os.path.join(folder, sub, name))
            # Closed patches come from the CEW faces (their set); open ones from LFW people.
            stem = name.rsplit("_", 1)[0]
            set_name = "lfw-patches" if is_open else "cew"
            person = stem.rsplit("_", 1)[0] if is_open else stem + ".jpg"  # the CEW face's file
            eyes.add(framed(image, CEW_PATCH_EYE), set_name, person, is_open, os.path.join(sub, name))
    for state in ("open", "closed"):
        folder = os.path.join(root, "mrl", state)
        for name in sorted(os.listdir(folder)):
            person = name.split("_")[0]
            eyes.add(framed(Image.open(os.path.join(folder, name)), MRL_EYE), "mrl", person, state == "open",
                     os.path.join("mrl", state, name))
        folder = os.path.join(root, "eye-closeups", state)
        for name in sorted(os.listdir(folder)):
            number = int("".join(c for c in name if c.isdigit()))
            eyes.add(framed(Image.open(os.path.join(folder, name)), CLOSEUP_EYE), "eye-closeups", str(number // 2),
                     state == "open", os.path.join("eye-closeups", state, name))


# ---- the network -------------------------------------------------------------------------------

CONVS = [(1, 8), (8, 16), (16, 32)]
HIDDEN = 64


def init_params(key):
    params = []
    for (cin, cout) in CONVS:
        key, sub = jax.random.split(key)
        params.append((jax.random.normal(sub, (3, 3, cin, cout)) * math.sqrt(2 / (9 * cin)), jnp.zeros(cout)))
    flat = CONVS[-1][1] * (SIDE // 8) ** 2
    key, a, b = jax.random.split(key, 3)
    params.append((jax.random.normal(a, (HIDDEN, flat)) * math.sqrt(2 / flat), jnp.zeros(HIDDEN)))
    params.append((jax.random.normal(b, (1, HIDDEN)) * math.sqrt(1 / HIDDEN), jnp.zeros(1)))
    return params


def standardised(x):
    """x: (n, SIDE, SIDE) grey levels -> (n, SIDE, SIDE, 1), as fk_patch_classifier_run does."""
    mean = x.mean(axis=(1, 2), keepdims=True)
    deviation = jnp.maximum(MIN_DEVIATION, jnp.sqrt(jnp.maximum(0, (x * x).mean(axis=(1, 2), keepdims=True) - mean * mean)))
    return ((x - mean) / deviation)[..., None]


def logits(params, x, dropout_key=None):
    """Channels last (XLA's CPU convolutions are twice as fast so); export_onnx reorders."""
    h = standardised(x)
    for (w, b) in params[:3]:
        h = jax.lax.conv_general_dilated(h, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        h = jax.nn.relu(h + b)
        # 2 x 2 max pooling (ONNX MaxPool); as a reshape, whose gradient XLA runs twice as fast.
        n, height, width, c = h.shape
        h = h.reshape(n, height // 2, 2, width // 2, 2, c).max(axis=(2, 4))
    h = h.reshape(h.shape[0], -1)
    w, b = params[3]
    h = jax.nn.relu(h @ w.T + b)
    if dropout_key is not None:
        keep = jax.random.bernoulli(dropout_key, 0.7, h.shape)
        h = jnp.where(keep, h / 0.7, 0)
    w, b = params[4]
    return (h @ w.T + b)[:, 0]


# ---- augmentation ------------------------------------------------------------------------------

def augment(key, base):
    """Random views of BASE patches: turned up to 12 degrees, scaled 0.85-1.2, shifted up to 3 px,
    mirrored half the time, blurred as a small face's eye is, gamma and noise; the centre SIDE."""
    n = base.shape[0]
    keys = jax.random.split(key, 8)
    angle = jax.random.uniform(keys[0], (n,), minval=-0.21, maxval=0.21)
    scale = jnp.exp(jax.random.uniform(keys[1], (n,), minval=math.log(0.85), maxval=math.log(1.2)))
    shift = jax.random.uniform(keys[2], (n, 2), minval=-3, maxval=3)
    flip = jnp.where(jax.random.bernoulli(keys[3], 0.5, (n,)), -1.0, 1.0)
    ys, xs = jnp.meshgrid(jnp.arange(SIDE) - (SIDE - 1) / 2, jnp.arange(SIDE) - (SIDE - 1) / 2, indexing="ij")

    def one(patch, a, s, t, f):
        c, si = jnp.cos(a) * s, jnp.sin(a) * s
        u = f * xs
        sx = c * u - si * ys + (BASE - 1) / 2 + t[0]
        sy = si * u + c * ys + (BASE - 1) / 2 + t[1]
        return jax.scipy.ndimage.map_coordinates(patch, [sy, sx], order=1, mode="nearest")

    views = jax.vmap(one)(base.astype(jnp.float32), angle, scale, shift, flip)
    # Blur: a Gaussian of sigma 0-1.6 px on half the views (an eye 8-10 px wide, enlarged).
    sigma = jnp.where(jax.random.bernoulli(keys[4], 0.5, (n,)), jax.random.uniform(keys[5], (n,), maxval=1.6), 0.0)
    taps = jnp.arange(-3, 4)
    kernel = jnp.exp(-(taps[None, :] ** 2) / (2 * jnp.maximum(sigma[:, None], 1e-3) ** 2))
    kernel = kernel / kernel.sum(axis=1, keepdims=True)

    def blur(view, k):
        padded = jnp.pad(view, 3, mode="edge")
        rows = sum(k[i] * padded[:, i:i + SIDE] for i in range(7))
        return sum(k[i] * rows[i:i + SIDE, :] for i in range(7))

    views = jax.vmap(blur)(views, kernel)
    gamma = jnp.exp(jax.random.uniform(keys[6], (n, 1, 1), minval=-0.4, maxval=0.4))
    views = 255 * (jnp.clip(views, 0, 255) / 255) ** gamma
    return views + jax.random.normal(keys[7], views.shape) * 3


def centre(base):
    return base[:, MARGIN:MARGIN + SIDE, MARGIN:MARGIN + SIDE].astype(np.float32)


# ---- training ----------------------------------------------------------------------------------

def group_weights(sets, labels):
    """Every (set, label) group weighs the same in all."""
    keys = np.char.add(sets, labels.astype(int).astype(str))
    unique, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    return (len(keys) / len(unique) / counts[inverse]).astype(np.float32)


def train(base, labels, weights, steps, seed, log=None):
    key = jax.random.PRNGKey(seed)
    key, sub = jax.random.split(key)
    params = init_params(sub)
    adam = [(jnp.zeros_like(w), jnp.zeros_like(w), jnp.zeros_like(b), jnp.zeros_like(b)) for (w, b) in params]
    probabilities = weights / weights.sum()

    def loss(params, x, y, w, key):
        z = logits(params, x, key)
        return jnp.sum(w * (jnp.logaddexp(0, z) - y * z)) / jnp.sum(w) + 1e-4 * sum(jnp.sum(p[0] ** 2) for p in params)

    @jax.jit
    def step(params, adam, t, x, y, w, key):
        key, k1, k2 = jax.random.split(key, 3)
        views = augment(k1, x)
        value, grads = jax.value_and_grad(loss)(params, views, y, w, k2)
        rate = 2e-3 * 0.5 * (1 + jnp.cos(jnp.pi * t / steps))
        new_params, new_adam = [], []
        for (w_, b_), (gw, gb), (mw, vw, mb, vb) in zip(params, grads, adam):
            mw, vw = 0.9 * mw + 0.1 * gw, 0.999 * vw + 0.001 * gw * gw
            mb, vb = 0.9 * mb + 0.1 * gb, 0.999 * vb + 0.001 * gb * gb
            c1, c2 = 1 - 0.9 ** (t + 1), 1 - 0.999 ** (t + 1)
            new_params.append((w_ - rate * (mw / c1) / (jnp.sqrt(vw / c2) + 1e-8),
                               b_ - rate * (mb / c1) / (jnp.sqrt(vb / c2) + 1e-8)))
            new_adam.append((mw, vw, mb, vb))
        return new_params, new_adam, value, key

    rng = np.random.default_rng(seed)
    batch = 128
    for t in range(steps):
        # Batches drawn by weight, so every group is seen as often; the loss then weighs them alike.
        picked = rng.choice(len(base), size=batch, p=probabilities)
        params, adam, value, key = step(params, adam, t, base[picked], labels[picked], np.ones(batch, np.float32), key)
        if log and t % 500 == 0:
            log(f"  step {t}: loss {float(value):.4f}")
    return params


def predict(params, base):
    fn = jax.jit(lambda p, x: logits(p, x))
    out = [np.asarray(fn(params, centre(base[i:i + 1024]))) for i in range(0, len(base), 1024)]
    return np.concatenate(out) if out else np.zeros(0)


# ---- metrics -----------------------------------------------------------------------------------

def sigmoid(z):
    return 1 / (1 + np.exp(-z))


def auc(scores, labels):
    labels = labels.astype(bool)
    positive, negative = scores[labels], scores[~labels]
    if len(positive) == 0 or len(negative) == 0:
        return float("nan")
    order = np.argsort(np.concatenate([positive, negative]), kind="mergesort")
    ranks = np.empty(len(order))
    values = np.concatenate([positive, negative])[order]
    i = 0
    while i < len(values):  # mid-ranks for ties
        j = i
        while j + 1 < len(values) and values[j + 1] == values[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return float((ranks[:len(positive)].sum() - len(positive) * (len(positive) + 1) / 2) / (len(positive) * len(negative)))


def fit_platt(z, y, w):
    """a, b minimising the weighted log loss of sigmoid(a z + b): Newton's method, each step
    halved until the loss falls (saturated logits make the plain step overshoot)."""
    def loss(a, b):
        t = a * z + b
        return np.sum(w * (np.logaddexp(0, t) - y * t))

    a, b = 1.0, 0.0
    for _ in range(100):
        p = sigmoid(a * z + b)
        g = np.array([np.sum(w * (p - y) * z), np.sum(w * (p - y))])
        h = w * p * (1 - p)
        hessian = np.array([[np.sum(h * z * z), np.sum(h * z)], [np.sum(h * z), np.sum(h)]]) + 1e-6 * np.eye(2)
        step = np.linalg.solve(hessian, g)
        current = loss(a, b)
        while loss(a - step[0], b - step[1]) > current and np.abs(step).max() > 1e-9:
            step = step / 2
        a, b = a - step[0], b - step[1]
        if np.abs(step).max() < 1e-7:
            break
    return float(a), float(b)


def f3(x):
    return "" if x != x else f"{x:.3f}"


# ---- ONNX --------------------------------------------------------------------------------------

def export_onnx(params, a, b, path, name="facekit_eye_state",
                doc=("FaceKit eye state: logit of 'open' for a standardised 32 x 32 grey eye patch "
                     "(1.8 eye widths square, aligned by the 68 landmarks; scripts/eye_model.py)"),
                producer="facekit eye_model.py"):
    """The network with the calibration folded into its last layer; input "patch" (N x 1 x 32 x 32,
    standardised by the caller), output "logit" (N x 1). `params` is one network, or a list of
    networks whose logits are averaged (an ensemble: one branch each, summed, the mean calibrated).
    scripts/smile_model.py gives its own name and description."""
    members = params if isinstance(params[0], list) else [params]
    nodes, initialisers, outputs = [], [], []
    for k, member in enumerate(members):
        prefix = "" if len(members) == 1 else f"m{k}."
        output = "logit" if len(members) == 1 else f"{prefix}logit"
        # The mean of the members' logits, calibrated: each last layer scaled by a / K, its bias
        # by a / K plus b / K, and the branches summed.
        scale, shift = a / len(members), b / len(members)
        branch_nodes, branch_initialisers = _branch(member, scale, shift, prefix, output)
        nodes += branch_nodes
        initialisers += branch_initialisers
        outputs.append(output)
    if len(members) > 1:
        nodes.append(helper.make_node("Sum", outputs, ["logit"]))
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("patch", TensorProto.FLOAT, ["N", 1, SIDE, SIDE])],
        [helper.make_tensor_value_info("logit", TensorProto.FLOAT, ["N", 1])], initialisers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)], producer_name=producer)
    model.ir_version = 6
    model.doc_string = doc
    onnx.checker.check_model(model)
    onnx.save(model, path)


def _branch(params, a, b, prefix, output):
    """One network's ONNX nodes and weights, from input "patch" to `output`, its last layer
    scaled by a and shifted by b; names start with `prefix`."""
    params = [(np.asarray(w, np.float32), np.asarray(bb, np.float32)) for (w, bb) in params]
    # Channels first, as ONNX: kernels HWIO -> OIHW, and the first dense layer's inputs from
    # (height, width, channel) order to (channel, height, width).
    for i in range(3):
        params[i] = (np.ascontiguousarray(params[i][0].transpose(3, 2, 0, 1)), params[i][1])
    w, bb = params[3]
    cells, channels = SIDE // 8, CONVS[-1][1]
    params[3] = (np.ascontiguousarray(w.reshape(-1, cells, cells, channels).transpose(0, 3, 1, 2).reshape(w.shape[0], -1)), bb)
    w, bb = params[4]
    params[4] = (np.float32(w * a), np.float32(bb * a + b))
    nodes, initialisers = [], []
    current = "patch"
    for i, (w, bb) in enumerate(params[:3]):
        initialisers += [numpy_helper.from_array(w, f"{prefix}conv{i}.w"), numpy_helper.from_array(bb, f"{prefix}conv{i}.b")]
        nodes.append(helper.make_node("Conv", [current, f"{prefix}conv{i}.w", f"{prefix}conv{i}.b"], [f"{prefix}conv{i}"],
                                      kernel_shape=[3, 3], pads=[1, 1, 1, 1]))
        nodes.append(helper.make_node("Relu", [f"{prefix}conv{i}"], [f"{prefix}relu{i}"]))
        nodes.append(helper.make_node("MaxPool", [f"{prefix}relu{i}"], [f"{prefix}pool{i}"], kernel_shape=[2, 2],
                                      strides=[2, 2]))
        current = f"{prefix}pool{i}"
    nodes.append(helper.make_node("Flatten", [current], [f"{prefix}flat"], axis=1))
    for i, (w, bb) in enumerate(params[3:]):
        initialisers += [numpy_helper.from_array(w, f"{prefix}dense{i}.w"), numpy_helper.from_array(bb, f"{prefix}dense{i}.b")]
        out = output if i == 1 else f"{prefix}dense{i}"
        nodes.append(helper.make_node("Gemm", [f"{prefix}flat" if i == 0 else f"{prefix}hidden", f"{prefix}dense{i}.w",
                                               f"{prefix}dense{i}.b"], [out], transB=1))
        if i == 0:
            nodes.append(helper.make_node("Relu", [out], [f"{prefix}hidden"]))
    return nodes, initialisers


# ---- main --------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--patches", required=True, help="the folder facekit-train eye-patches wrote")
    parser.add_argument("--data", required=True, help="the development data (../shared/data)")
    parser.add_argument("--output", required=True, help="where to write the network (eye_state.onnx)")
    parser.add_argument("--work", required=True,
                        help="a folder for what a run keeps: held-out logits, the raw network, heldout.csv")
    parser.add_argument("--reuse", action="store_true",
                        help="take the held-out logits and the network from --work instead of training (to recalibrate)")
    parser.add_argument("--steps", type=int, default=4000)
    parser.add_argument("--protocol", default="both", choices=["person", "set", "both", "none"],
                        help="which held-out scores to compute (none: only train the shipped network)")
    args = parser.parse_args()
    log = lambda text: print(text, file=sys.stderr, flush=True)

    eyes = Eyes()
    load_exported(args.patches, eyes)
    load_crops(args.data, eyes)
    base, sets, people, labels, inter_ocular, runtime = eyes.arrays()
    sources = np.array(eyes.sources)
    weights = group_weights(sets, labels)
    names = sorted(set(sets))
    log("eyes: " + ", ".join(f"{s} {np.sum(sets == s)} ({int(np.sum((sets == s) & (labels == 0)))} closed)" for s in names))

    saved = os.path.join(args.work, "held-out-logits.npz")
    if args.reuse:
        logits_file = np.load(saved)
        by_person, by_set = logits_file["by_person"], logits_file["by_set"]
        log(f"held-out logits read from {saved}")
    else:
        by_person, by_set = held_out_logits(args, base, sets, people, labels, weights, names, log)
        np.savez(saved, by_person=by_person, by_set=by_set)

    folds = person_folds(sets, people)
    photos = ~np.isnan(inter_ocular) & np.isin(sets, PHOTO_SETS)
    a, b = fit_calibration(by_person, labels, sets, photos)
    # The tables use calibrations cross-fitted by person fold (each fold's scores calibrated on
    # the other folds'), so that no reported number saw its own calibration.
    crossed = np.full(len(base), np.nan)
    for fold in range(FOLDS):
        fa, fb = fit_calibration(by_person, labels, sets, photos & (folds != fold))
        crossed[folds == fold] = fa * by_person[folds == fold] + fb
    # Leaving a set out is shown with the network's own probabilities: the calibration comes from
    # the person folds, which saw every set.
    for title, z in (("by person (five folds of people; each FOCUS person a fold), calibrated", crossed),
                     ("by set (leave-one-set-out), the network's own probabilities", by_set)):
        if not np.isnan(z).all():
            print(f"\n#### Held out {title}\n")
            print_tables(sets, people, labels, inter_ocular, runtime, z, names, sources)
    print(f"\nCalibration (Platt scaling on the by-person held-out logits of the photos of strangers, "
          f"CEW against open-faces and GENKI, closed and open weighing the same): a = {a:.4f}, b = {b:.4f}\n")
    if not np.isnan(crossed).all():
        print_reliability(crossed, labels, sets, photos)

    network = os.path.join(args.work, "network.npz")
    if args.reuse:
        params = [tuple(pair) for pair in np.load(network, allow_pickle=True)["params"]]
        log(f"network read from {network}")
    else:
        # The shipped network learns from every set but the test split, which FaceKit's tests read.
        kept = ~in_test_split(sets, people)
        log(f"final network: {kept.sum()} eyes ({(~kept).sum()} kept aside for the tests)")
        params = train(base[kept], labels[kept], weights[kept], args.steps, SEED, log)
        np.savez(network, params=np.array([(np.asarray(w), np.asarray(bb)) for (w, bb) in params], dtype=object))
    export_onnx(params, a, b, args.output)
    log(f"wrote {args.output}")
    write_held_out(os.path.join(args.work, "heldout.csv"), args.patches, sigmoid(crossed))
    log(f"wrote {os.path.join(args.work, 'heldout.csv')}")


# The photos of strangers that the calibration is fitted on: what a still probability is for.
PHOTO_SETS = ("cew", "open-faces", "genki")


def fit_calibration(z, labels, sets, rows):
    """Platt scaling on rows of the photo sets, closed (CEW) and open (the others, each half of
    the open weight) weighing the same, so that 0.5 means as likely open as closed."""
    rows = rows & ~np.isnan(z)
    if not rows.any():
        return 1.0, 0.0
    weights = np.zeros(len(z))
    for s, share in (("cew", 0.5), ("open-faces", 0.25), ("genki", 0.25)):
        chosen = rows & (sets == s)
        weights[chosen] = share / max(chosen.sum(), 1)
    return fit_platt(z[rows], labels[rows], weights[rows] * rows.sum())


def held_out_logits(args, base, sets, people, labels, weights, names, log):
    """The held-out logits of each protocol asked for (NaN where not computed)."""
    by_person = np.full(len(base), np.nan)
    if args.protocol in ("person", "both"):
        folds = person_folds(sets, people)
        for fold in range(FOLDS):
            started = time.time()
            params = train(base[folds != fold], labels[folds != fold], weights[folds != fold], args.steps, SEED)
            by_person[folds == fold] = predict(params, base[folds == fold])
            log(f"person fold {fold}: {time.time() - started:.0f} s")
    by_set = np.full(len(base), np.nan)
    if args.protocol in ("set", "both"):
        for s in names:
            started = time.time()
            params = train(base[sets != s], labels[sets != s], weights[sets != s], args.steps, SEED)
            by_set[sets == s] = predict(params, base[sets == s])
            log(f"without {s}: {time.time() - started:.0f} s")

    return by_person, by_set


FOLDS = 5


def person_folds(sets, people):
    """Each person's fold: the people of a set, sorted, dealt out in turn; FOCUS's two people
    each a fold of her own."""
    folds = np.zeros(len(sets), dtype=int)
    for s in sorted(set(sets)):
        rows = sets == s
        if s.startswith("focus-"):
            folds[rows] = {"focus-mahie": 0, "focus-soniya": 1}[s]
            continue
        index = {person: i % FOLDS for i, person in enumerate(sorted(set(people[rows])))}
        folds[rows] = [index[person] for person in people[rows]]
    return folds


def in_test_split(sets, people):
    """Every 10th CEW face and open-faces crop (by file name): the photos of strangers that
    Tests/FaceKitTests' eye tests read, never shown to the shipped network."""
    result = np.zeros(len(sets), dtype=bool)
    for s in ("cew", "open-faces"):
        faces = sorted(set(people[(sets == s)]))
        aside = set(faces[::10])
        result |= (sets == s) & np.isin(people, list(aside))
    return result


def write_held_out(path, patches, probabilities):
    """group, source, eye, held-out probability of each exported eye, for facekit-train classifiers."""
    with open(os.path.join(patches, "eyes.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    with open(path, "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["group", "source", "eye", "heldout_probability"])
        for row, p in zip(rows, probabilities):
            out.writerow([row["group"], row["source"], row["eye"], f"{p:.6f}"])


def per_face(values, sources, rows):
    """The mean of each face's eyes (FaceKit's patches only: they have a face size)."""
    faces = {}
    for v, source in zip(values[rows], sources[rows]):
        faces.setdefault(source, []).append(v)
    return np.array([np.mean(v) for v in faces.values()])


def print_tables(sets, people, labels, inter_ocular, runtime, z, names, sources):
    p = sigmoid(z)
    photos = ~np.isnan(inter_ocular) & ~np.isnan(z)
    cew = per_face(p, sources, photos & (sets == "cew"))
    print("Strangers' photos, per face (the mean of its two eyes' probabilities):\n")
    print("| set | faces | read right at 0.5 | AUC against CEW | former model read right |")
    print("|---|---|---|---|---|")
    for s, is_open in (("cew", False), ("open-faces", True), ("genki", True)):
        rows = photos & (sets == s)
        faces = per_face(p, sources, rows)
        former = per_face(runtime, sources, rows & ~np.isnan(runtime))
        right = np.mean(faces >= 0.5) if is_open else np.mean(faces < 0.5)
        former_right = np.mean(former >= 0.5) if is_open else np.mean(former < 0.5)
        against = auc(np.concatenate([cew, faces]), np.r_[np.zeros(len(cew)), np.ones(len(faces))]) if is_open else float("nan")
        print(f"| {s} | {len(faces)} | {f3(right)} | {f3(against)} | {f3(former_right)} |")
    print()
    print("| held-out set | eyes | closed | read correctly at 0.5 | AUC | Brier | former model read correctly |")
    print("|---|---|---|---|---|---|---|")
    for s in names:
        rows = (sets == s) & ~np.isnan(z)
        if not rows.any():
            continue
        y = labels[rows]
        correct = np.mean((p[rows] >= 0.5) == (y == 1))
        former = rows & ~np.isnan(runtime)
        former_correct = np.mean((runtime[former] >= 0.5) == (labels[former] == 1)) if former.any() else float("nan")
        print(f"| {s} | {rows.sum()} | {int(np.sum(y == 0))} | {f3(correct)} | {f3(auc(z[rows], y))} | "
              f"{f3(np.mean((p[rows] - y) ** 2))} | {f3(former_correct)} |")
    print("\nPer person (held out), sets of several labelled people:\n")
    print("| set | person | eyes | closed | AUC | read correctly at 0.5 |")
    print("|---|---|---|---|---|---|")
    for s in ("mrl", "focus-mahie", "focus-soniya"):
        rows = (sets == s) & ~np.isnan(z)
        for person in sorted(set(people[rows])):
            r = rows & (people == person)
            y = labels[r]
            print(f"| {s} | {person} | {r.sum()} | {int(np.sum(y == 0))} | {f3(auc(z[r], y))} | "
                  f"{f3(np.mean((p[r] >= 0.5) == (y == 1)))} |")
    rows = (sets == "eye-closeups") & ~np.isnan(z)
    if rows.any():
        right = [np.mean((p[rows & (people == q)] >= 0.5) == (labels[rows & (people == q)] == 1))
                 for q in sorted(set(people[rows]))]
        print(f"\neye-closeups, {len(right)} people of 2 open and 2 closed eyes each: all 4 eyes right for "
              f"{np.mean(np.array(right) == 1):.3f} of them, 3 of 4 for {np.mean(np.array(right) == 0.75):.3f}, "
              f"2 or fewer for {np.mean(np.array(right) <= 0.5):.3f}")
    print("\nBy face size (outer-eye-corner distance), held out:\n")
    print("| eye-corner distance | CEW eyes | read closed | open-faces + GENKI eyes | read open |")
    print("|---|---|---|---|---|")
    for low, high in ((16, 24), (24, 32), (32, 48), (48, 64), (64, 1e9)):
        size = (inter_ocular >= low) & (inter_ocular < high) & ~np.isnan(z)
        closed = size & (sets == "cew")
        opened = size & ((sets == "open-faces") | (sets == "genki"))
        name = f"{low}-{int(high)} px" if high < 1e9 else f"over {low} px"
        print(f"| {name} | {closed.sum()} | {f3(np.mean(p[closed] < 0.5)) if closed.any() else ''} | {opened.sum()} | "
              f"{f3(np.mean(p[opened] >= 0.5)) if opened.any() else ''} |")


def print_reliability(z, labels, sets, photos):
    """Held-out probabilities against what was true, pooled over the photo sets (each face's eyes
    counted), then the mean probability of each set."""
    p = sigmoid(z)
    rows = photos & ~np.isnan(z)
    print("| predicted | eyes | mean prediction | observed open |")
    print("|---|---|---|---|")
    for low in np.arange(0, 1, 0.1):
        chosen = rows & (p >= low) & (p < low + 0.1 + (1e-9 if low >= 0.9 else 0))
        if chosen.any():
            print(f"| {low:.1f}-{low + 0.1:.1f} | {chosen.sum()} | {f3(p[chosen].mean())} | {f3(labels[chosen].mean())} |")
    print("\n| set | eyes | mean probability of open | truly open |")
    print("|---|---|---|---|")
    for s in sorted(set(sets)):
        chosen = (sets == s) & ~np.isnan(z)
        print(f"| {s} | {chosen.sum()} | {f3(p[chosen].mean())} | {f3(labels[chosen].mean())} |")


if __name__ == "__main__":
    main()
