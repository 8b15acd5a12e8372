// Frame player for `cargo xtask view DIR`. xtask inlines the esbuild bundle of this file
// (with three.js) into DIR/index.html after a <script id="frames" type="application/json">
// element holding
//   { name, triangles: [i0,i1,i2,...], segments: [...], frames: [{ t, x: [...], s?: [...] }],
//     color: [r,g,b per particle, 0..1] (by body; absent when colouring by a field),
//     field?: { name, range: [lo, hi] } (then each frame's `s` holds the field per particle),
//     legend: [{ name, color: "#rrggbb" }], free: [particles drawn as spheres], radius: [...] }.
// Particles of no triangle (grains, rope nodes) are drawn as shaded spheres of their contact
// radius; triangles as a shaded surface. `#frame=K` (or `#frame=last`) shows output K, paused.
// No network at view time.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

const data = JSON.parse(document.getElementById('frames').textContent);
const n = data.frames[0].x.length / 3;

const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(window.devicePixelRatio);
renderer.setSize(window.innerWidth, window.innerHeight);
renderer.setClearColor(0xf4f4f0);
document.body.appendChild(renderer.domElement);

const scene = new THREE.Scene();
scene.add(new THREE.HemisphereLight(0xffffff, 0x445566, 1.4));
const sun = new THREE.DirectionalLight(0xffffff, 1.6);
sun.position.set(2, -3, 4);
scene.add(sun);

// Field colours: a perceptual ramp (viridis stops), value clamped to the run's range.
const RAMP = [0x440154, 0x3b528b, 0x21918c, 0x5ec962, 0xfde725].map((c) => new THREE.Color(c));
function ramp(v, out) {
  const [lo, hi] = data.field.range;
  const u = Math.min(Math.max((v - lo) / Math.max(hi - lo, 1e-30), 0), 1) * (RAMP.length - 1);
  const k = Math.min(Math.floor(u), RAMP.length - 2);
  return out.copy(RAMP[k]).lerp(RAMP[k + 1], u - k);
}
const colors = new Float32Array(n * 3);
function setColors(k) {
  if (data.field) {
    const c = new THREE.Color();
    const s = data.frames[k].s;
    for (let i = 0; i < n; i++) {
      ramp(s[i], c);
      colors[3 * i] = c.r; colors[3 * i + 1] = c.g; colors[3 * i + 2] = c.b;
    }
  } else {
    colors.set(data.color);
  }
}

const positions = new Float32Array(n * 3);
const geometry = new THREE.BufferGeometry();
geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
geometry.setAttribute('color', new THREE.BufferAttribute(colors, 3));
if (data.triangles.length > 0) {
  geometry.setIndex(data.triangles);
  scene.add(new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({
    vertexColors: true, side: THREE.DoubleSide, flatShading: true, roughness: 0.8 })));
}
if (data.segments.length > 0) {
  const lines = new THREE.BufferGeometry();
  lines.setAttribute('position', geometry.getAttribute('position'));
  lines.setAttribute('color', geometry.getAttribute('color'));
  lines.setIndex(data.segments);
  scene.add(new THREE.LineSegments(lines, new THREE.LineBasicMaterial({ vertexColors: true })));
}
// Free particles as instanced spheres, shaded, in their body's (or field's) colour.
const free = data.free;
const spheres = new THREE.InstancedMesh(new THREE.IcosahedronGeometry(1, 1),
  new THREE.MeshStandardMaterial({ roughness: 0.7 }), Math.max(free.length, 1));
spheres.count = free.length;
scene.add(spheres);

// Camera framing the box of all frames from the 0.5th to the 99.5th percentile of each axis
// (a few particles thrown far away do not shrink the scene to a dot); z is up as in the
// simulation.
const box = new THREE.Box3();
{
  const axes = [[], [], []];
  for (const f of data.frames) {
    for (let i = 0; i < f.x.length; i++) axes[i % 3].push(f.x[i]);
  }
  const q = (v, p) => v[Math.min(v.length - 1, Math.max(0, Math.round(p * (v.length - 1))))];
  const lo = [], hi = [];
  for (const v of axes) {
    v.sort((a, b) => a - b);
    lo.push(q(v, 0.005));
    hi.push(q(v, 0.995));
  }
  box.set(new THREE.Vector3(...lo), new THREE.Vector3(...hi));
}
const center = box.getCenter(new THREE.Vector3());
const radius = Math.max(box.getSize(new THREE.Vector3()).length() * 0.5, 1e-3);
const camera = new THREE.PerspectiveCamera(40, window.innerWidth / window.innerHeight, radius * 0.01, radius * 100);
camera.up.set(0, 0, 1);
camera.position.copy(center).add(new THREE.Vector3(1.5, -2.3, 1.1).multiplyScalar(0.9 * radius));
const controls = new OrbitControls(camera, renderer.domElement);
controls.target.copy(center);
controls.update();
scene.add(new THREE.GridHelper(radius * 4, 20, 0x999999, 0xcccccc).rotateX(Math.PI / 2)
  .translateY(box.min.z - 1e-3 * radius));

const legend = document.getElementById('legend');
if (legend) {
  if (data.field) {
    const [lo, hi] = data.field.range;
    const stops = RAMP.map((c) => `#${c.getHexString()}`).join(',');
    legend.innerHTML = `${data.field.name} <span style="display:inline-block;width:120px;height:10px;background:linear-gradient(90deg,${stops})"></span> ${lo.toPrecision(3)} … ${hi.toPrecision(3)}`;
  } else {
    legend.innerHTML = data.legend.map((b) =>
      `<span style="display:inline-block;width:10px;height:10px;background:${b.color}"></span> ${b.name}`).join(' &nbsp; ');
  }
}

const info = document.getElementById('info');
const slider = document.getElementById('frame');
const play = document.getElementById('play');
slider.max = String(data.frames.length - 1);
let frame = 0;
let playing = true;
const wanted = /frame=(\d+|last)/.exec(window.location.hash);
if (wanted) {
  frame = wanted[1] === 'last' ? data.frames.length - 1 : Math.min(Number(wanted[1]), data.frames.length - 1);
  playing = false;
  play.textContent = 'play';
}
play.onclick = () => { playing = !playing; play.textContent = playing ? 'pause' : 'play'; };
slider.oninput = () => { frame = Number(slider.value); playing = false; play.textContent = 'play'; };

const m = new THREE.Matrix4();
const c = new THREE.Color();
let shown = -1;
function show(k) {
  if (k === shown) return;
  shown = k;
  positions.set(data.frames[k].x);
  setColors(k);
  geometry.attributes.position.needsUpdate = true;
  geometry.attributes.color.needsUpdate = true;
  geometry.computeVertexNormals();
  geometry.computeBoundingSphere();
  const x = data.frames[k].x;
  for (let j = 0; j < free.length; j++) {
    const i = free[j];
    const r = data.radius[i];
    m.makeScale(r, r, r).setPosition(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
    spheres.setMatrixAt(j, m);
    spheres.setColorAt(j, c.setRGB(colors[3 * i], colors[3 * i + 1], colors[3 * i + 2]));
  }
  spheres.instanceMatrix.needsUpdate = true;
  if (spheres.instanceColor) spheres.instanceColor.needsUpdate = true;
  spheres.computeBoundingSphere();
  slider.value = String(k);
  info.textContent = `${data.name}: output ${k + 1}/${data.frames.length} (simulation frame ${data.frames[k].t}), ${n} particles`;
}

// Drawn on demand (a new output, a camera move, a resize): a paused page costs nothing.
let last = 0;
let dirty = true;
controls.addEventListener('change', () => { dirty = true; });
function animate(now) {
  requestAnimationFrame(animate);
  if (playing && now - last > 1000 / 30) {
    frame = (frame + 1) % data.frames.length;
    last = now;
  }
  if (frame !== shown) {
    show(frame);
    dirty = true;
  }
  if (dirty) {
    renderer.render(scene, camera);
    dirty = false;
  }
}
window.addEventListener('resize', () => {
  camera.aspect = window.innerWidth / window.innerHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(window.innerWidth, window.innerHeight);
  dirty = true;
});
show(frame);
renderer.render(scene, camera);
dirty = false;
document.body.dataset.ready = '1';
requestAnimationFrame(animate);
