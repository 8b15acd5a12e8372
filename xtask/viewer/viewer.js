// Frame player for `cargo xtask view DIR`. xtask inlines the esbuild bundle of this file
// (with three.js) into DIR/index.html after a <script id="frames" type="application/json">
// element holding { name, triangles: [i0,i1,i2,...], segments: [...], frames: [{ t, x: [...] }] }.
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
scene.add(new THREE.HemisphereLight(0xffffff, 0x445566, 1.2));
const sun = new THREE.DirectionalLight(0xffffff, 1.5);
sun.position.set(2, -3, 4);
scene.add(sun);

const positions = new Float32Array(n * 3);
const geometry = new THREE.BufferGeometry();
geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
let object;
if (data.triangles.length > 0) {
  geometry.setIndex(data.triangles);
  object = new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({
    color: 0x3070c0, side: THREE.DoubleSide, flatShading: true }));
} else if (data.segments.length > 0) {
  geometry.setIndex(data.segments);
  object = new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color: 0x3070c0 }));
} else {
  object = new THREE.Points(geometry, new THREE.PointsMaterial({ color: 0x3070c0, size: 4, sizeAttenuation: false }));
}
scene.add(object);
// Particles as points too, so ropes and unmeshed particles are always visible.
scene.add(new THREE.Points(geometry, new THREE.PointsMaterial({ color: 0x103050, size: data.triangles.length > 0 ? 3 : 7, sizeAttenuation: false })));

// Camera framing the bounding box of all frames; z is up as in the simulation.
const box = new THREE.Box3();
for (const f of data.frames) {
  for (let i = 0; i < f.x.length; i += 3) box.expandByPoint(new THREE.Vector3(f.x[i], f.x[i + 1], f.x[i + 2]));
}
const center = box.getCenter(new THREE.Vector3());
const radius = Math.max(box.getSize(new THREE.Vector3()).length() * 0.5, 1e-3);
const camera = new THREE.PerspectiveCamera(45, window.innerWidth / window.innerHeight, radius * 0.01, radius * 100);
camera.up.set(0, 0, 1);
camera.position.copy(center).add(new THREE.Vector3(1.6, -2.2, 1.2).multiplyScalar(radius));
const controls = new OrbitControls(camera, renderer.domElement);
controls.target.copy(center);
controls.update();
scene.add(new THREE.GridHelper(radius * 4, 20, 0x999999, 0xcccccc).rotateX(Math.PI / 2)
  .translateY(box.min.z - 1e-3 * radius));

const info = document.getElementById('info');
const slider = document.getElementById('frame');
const play = document.getElementById('play');
slider.max = String(data.frames.length - 1);
let frame = 0;
let playing = true;
play.onclick = () => { playing = !playing; play.textContent = playing ? 'pause' : 'play'; };
slider.oninput = () => { frame = Number(slider.value); playing = false; play.textContent = 'play'; };

function show(k) {
  positions.set(data.frames[k].x);
  geometry.attributes.position.needsUpdate = true;
  geometry.computeVertexNormals();
  geometry.computeBoundingSphere();
  slider.value = String(k);
  info.textContent = `${data.name}: output ${k + 1}/${data.frames.length} (simulation frame ${data.frames[k].t}), ${n} particles`;
}

let last = 0;
function animate(now) {
  requestAnimationFrame(animate);
  if (playing && now - last > 1000 / 30) {
    frame = (frame + 1) % data.frames.length;
    last = now;
  }
  show(frame);
  renderer.render(scene, camera);
}
window.addEventListener('resize', () => {
  camera.aspect = window.innerWidth / window.innerHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(window.innerWidth, window.innerHeight);
});
show(0);
renderer.render(scene, camera);
document.body.dataset.ready = '1';
requestAnimationFrame(animate);
