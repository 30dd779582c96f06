// The 3-D view: the bodies of a SCENE at the poses of each STATE, the tool and the device, contacts, and the
// rendered force. Scene frame, metres, z up (docs/stream-protocol.md section 1).
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { ConvexGeometry } from 'three/addons/geometries/ConvexGeometry.js';

/** Length of the force arrow per newton: 5 N is drawn 5 cm long, the size of the default scene's features. */
const ARROW_M_PER_N = 0.01;
/** Half the side of the square drawn for an (infinite) plane. */
const PLANE_HALF_SIZE_M = 0.2;
const NORMAL_ARROW_M = 0.015;
const MOTION_COLOURS = { STATIC: 0x8a939c, KINEMATIC: 0x4caf50, DYNAMIC: 0x3f7fd0 };
/** Green: the server hints static bodies grey, kinematic blue and dynamic orange. */
const TOOL_COLOUR = 0x39d353;
const FORCE_COLOUR = 0xe0309a;
const CONTACT_COLOUR = 0xff2020;
const NORMAL_COLOUR = 0xffd400;
const HAND_COLOUR = 0x20c0c0;

/** A wire number: JSON floats may be the strings "NaN", "Infinity", "-Infinity" (section 6). */
export function num(value) {
  return typeof value === 'string' ? Number(value) : value;
}

function vec(array) {
  return new THREE.Vector3(num(array[0]), num(array[1]), num(array[2]));
}

/** Wire quaternions are [w, x, y, z]; three.js takes (x, y, z, w). */
function quat(array) {
  return new THREE.Quaternion(num(array[1]), num(array[2]), num(array[3]), num(array[0]));
}

function bodyMaterial(body) {
  const hex = body.colourRgba || '#00000000';
  const alpha = parseInt(hex.slice(7, 9), 16) / 255;
  const hinted = alpha > 0;
  const colour = hinted ? new THREE.Color(hex.slice(0, 7)) : new THREE.Color(MOTION_COLOURS[body.motion] ?? 0x999999);
  const planeLike = body.shape.type === 'PLANE' || body.shape.type === 'TRIANGLE_MESH';
  const opacity = body.shape.type === 'PLANE' ? Math.min(hinted ? alpha : 1, 0.45) : (hinted ? alpha : 1);
  return new THREE.MeshStandardMaterial({
    color: colour,
    roughness: 0.7,
    metalness: 0.05,
    transparent: opacity < 1,
    opacity,
    depthWrite: opacity >= 1,
    side: planeLike ? THREE.DoubleSide : THREE.FrontSide,
  });
}

/**
 * Bodies in a scene above which spheres are drawn coarser: a 200-sphere pile at 32 × 16 segments was 200,000
 * triangles, and a page drawing it in software managed 2 frames a second.
 */
const MANY_BODIES = 64;

/** The body-frame object for a shape (section 4.2's shape table); `coarse` for scenes of many bodies. */
function shapeObject(shape, material, coarse = false) {
  switch (shape.type) {
    case 'SPHERE':
      return new THREE.Mesh(new THREE.SphereGeometry(num(shape.radiusM), coarse ? 12 : 32, coarse ? 8 : 16),
        material);
    case 'BOX': {
      const h = shape.halfExtentsM.map(num);
      return new THREE.Mesh(new THREE.BoxGeometry(2 * h[0], 2 * h[1], 2 * h[2]), material);
    }
    case 'CAPSULE': {
      // three.js builds capsules along y; the protocol's runs along the body z axis.
      const geometry = new THREE.CapsuleGeometry(num(shape.radiusM), 2 * num(shape.halfHeightM), 8, 24);
      geometry.rotateX(Math.PI / 2);
      return new THREE.Mesh(geometry, material);
    }
    case 'PLANE': {
      // {x : normal·x = offsetM}, solid opposite the normal: a finite square of it, with a grid for depth cues.
      const n = vec(shape.normal).normalize();
      const group = new THREE.Group();
      const square = new THREE.Mesh(new THREE.PlaneGeometry(2 * PLANE_HALF_SIZE_M, 2 * PLANE_HALF_SIZE_M), material);
      const grid = new THREE.GridHelper(2 * PLANE_HALF_SIZE_M, 40, 0x55606a, 0x3a424a);
      grid.rotation.x = Math.PI / 2;
      grid.position.z = 1e-4;
      group.add(square, grid);
      group.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), n);
      group.position.copy(n.clone().multiplyScalar(num(shape.offsetM)));
      return group;
    }
    case 'CONVEX_HULL': {
      const points = shape.verticesM.map(vec);
      if (points.length >= 4) {
        try {
          return new THREE.Mesh(new ConvexGeometry(points), material);
        } catch (e) {
          // Degenerate (flat) point sets have no hull to fill: fall through to drawing the points.
        }
      }
      return new THREE.Points(new THREE.BufferGeometry().setFromPoints(points),
        new THREE.PointsMaterial({ color: material.color, size: 4, sizeAttenuation: false }));
    }
    case 'TRIANGLE_MESH': {
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', new THREE.Float32BufferAttribute(shape.verticesM.flat().map(num), 3));
      geometry.setIndex(shape.triangles.flat());
      geometry.computeVertexNormals();
      return new THREE.Mesh(geometry, material);
    }
    case 'DEFORMABLE': {
      // One position buffer shared by the springs (lines) and the surface (a shaded, two-sided mesh); each STATE
      // rewrites it (applyState).
      const positions = new THREE.Float32BufferAttribute(shape.nodesM.flat().map(num), 3);
      positions.setUsage(THREE.DynamicDrawUsage);
      const group = new THREE.Group();
      if (shape.triangles.length > 0) {
        const surface = new THREE.BufferGeometry();
        surface.setAttribute('position', positions);
        surface.setIndex(shape.triangles.flat());
        surface.computeVertexNormals();
        const cloth = material.clone();
        cloth.side = THREE.DoubleSide;
        group.add(new THREE.Mesh(surface, cloth));
      }
      const lines = new THREE.BufferGeometry();
      lines.setAttribute('position', positions);
      lines.setIndex(shape.edges.flat());
      group.add(new THREE.LineSegments(lines, new THREE.LineBasicMaterial({ color: 0xdde6ee })));
      group.userData.deformable = { positions, nodes: shape.nodesM.length };
      return group;
    }
    default:
      return new THREE.Group();
  }
}

function disposeTree(object) {
  object.traverse((o) => {
    if (o.geometry) {
      o.geometry.dispose();
    }
    if (o.material) {
      o.material.dispose();
    }
  });
}

export class SceneView {
  constructor(container) {
    this.container = container;
    this.renderer = new THREE.WebGLRenderer({ antialias: true });
    this.renderer.setPixelRatio(window.devicePixelRatio);
    this.renderer.setClearColor(0x1b1f24);
    container.appendChild(this.renderer.domElement);
    this.canvas = this.renderer.domElement;

    this.camera = new THREE.PerspectiveCamera(45, 1, 0.001, 20);
    this.camera.up.set(0, 0, 1);
    this.camera.position.set(0.12, -0.22, 0.12);
    this.controls = new OrbitControls(this.camera, this.canvas);
    this.controls.enableDamping = false;

    this.world = new THREE.Scene();
    this.world.add(new THREE.HemisphereLight(0xffffff, 0x404040, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6);
    sun.position.set(0.3, -0.5, 1.0);
    this.world.add(sun);
    this.world.add(new THREE.AxesHelper(0.02));

    this.bodyLayer = new THREE.Group();
    this.world.add(this.bodyLayer);
    this.bodies = new Map();

    this.tool = new THREE.Mesh(new THREE.SphereGeometry(1, 32, 16),
      new THREE.MeshStandardMaterial({ color: TOOL_COLOUR, roughness: 0.4, emissive: 0x0a3312 }));
    this.world.add(this.tool);
    this.device = new THREE.Mesh(new THREE.SphereGeometry(1, 12, 8),
      new THREE.MeshBasicMaterial({ color: 0xffffff, wireframe: true }));
    this.world.add(this.device);
    this.forceArrow = new THREE.ArrowHelper(new THREE.Vector3(0, 0, 1), new THREE.Vector3(), 0.01, FORCE_COLOUR);
    this.forceArrow.visible = false;
    this.world.add(this.forceArrow);
    this.hand = new THREE.Mesh(new THREE.SphereGeometry(1, 16, 8),
      new THREE.MeshBasicMaterial({ color: HAND_COLOUR, wireframe: true }));
    this.hand.visible = false;
    this.world.add(this.hand);
    this.handLine = new THREE.Line(new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), new THREE.Vector3()]),
      new THREE.LineBasicMaterial({ color: HAND_COLOUR }));
    this.handLine.visible = false;
    this.world.add(this.handLine);

    this.contactPoints = [];
    this.contactNormals = [];
    this.contactLayer = new THREE.Group();
    this.world.add(this.contactLayer);

    this.toolRadiusM = 0.005;
    this.fitted = false;
    this.framesRendered = 0;
    this.onFrame = () => {};
    this.resize();
    window.addEventListener('resize', () => this.resize());
    // One frame per display refresh at most, whatever the STATE rate: with a software renderer (no GPU) a frame
    // can take longer than a STATE interval, and drawing per STATE would starve the page's event handling.
    this.renderer.setAnimationLoop(() => {
      this.onFrame();
      this.renderer.render(this.world, this.camera);
      this.framesRendered++;
    });
  }

  resize() {
    const width = Math.max(1, this.container.clientWidth);
    const height = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(width, height);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
  }

  /** Replaces every body with those of a new SCENE. */
  setScene(scene) {
    for (const object of this.bodies.values()) {
      this.bodyLayer.remove(object);
      disposeTree(object);
    }
    this.bodies.clear();
    const coarse = scene.bodies.length > MANY_BODIES;
    for (const body of scene.bodies) {
      const object = shapeObject(body.shape, bodyMaterial(body), coarse);
      const holder = new THREE.Group();
      holder.add(object);
      holder.position.copy(vec(body.positionM));
      holder.quaternion.copy(quat(body.orientation));
      holder.userData = { id: body.id, name: body.name, plane: body.shape.type === 'PLANE',
        deformable: object.userData.deformable ?? null };
      this.bodyLayer.add(holder);
      this.bodies.set(body.id, holder);
    }
    this.toolRadiusM = num(scene.toolRadiusM);
    this.tool.scale.setScalar(this.toolRadiusM);
    this.device.scale.setScalar(this.toolRadiusM * 0.35);
    this.hand.scale.setScalar(this.toolRadiusM * 0.6);
    if (this.sceneName !== scene.name) {
      this.sceneName = scene.name;
      this.fitted = false;
    }
  }

  /** Node i's position of the deformable body named {@code name} as drawn, [x, y, z], or null. */
  deformableNode(name, i) {
    for (const holder of this.bodies.values()) {
      const d = holder.userData.deformable;
      if (holder.userData.name === name && d && i < d.nodes) {
        const a = d.positions.array;
        return [a[3 * i], a[3 * i + 1], a[3 * i + 2]];
      }
    }
    return null;
  }

  get bodiesDrawn() {
    return this.bodies.size;
  }

  applyState(state) {
    for (const nodes of state.deformables ?? []) {
      const holder = this.bodies.get(nodes.bodyId);
      const d = holder?.userData.deformable;
      if (d && nodes.nodePositionsM.length === d.nodes) {
        const array = d.positions.array;
        nodes.nodePositionsM.forEach((p, i) => {
          array[3 * i] = num(p[0]);
          array[3 * i + 1] = num(p[1]);
          array[3 * i + 2] = num(p[2]);
        });
        d.positions.needsUpdate = true;
        holder.traverse((o) => {
          if (o.isMesh) {
            o.geometry.computeVertexNormals();
            o.geometry.computeBoundingSphere();
          } else if (o.geometry) {
            o.geometry.computeBoundingSphere();
          }
        });
        this.deformableUpdates = (this.deformableUpdates ?? 0) + 1;
      }
    }
    for (const pose of state.poses) {
      const holder = this.bodies.get(pose.bodyId);
      if (holder) {
        holder.position.copy(vec(pose.positionM));
        holder.quaternion.copy(quat(pose.orientation));
      }
    }
    const toolAt = vec(state.toolPositionM);
    this.tool.position.copy(toolAt);
    this.device.position.copy(vec(state.devicePositionM));

    const force = vec(state.renderedForceN);
    const magnitude = force.length();
    this.forceArrow.visible = Number.isFinite(magnitude) && magnitude > 1e-3;
    if (this.forceArrow.visible) {
      const length = magnitude * ARROW_M_PER_N;
      this.forceArrow.position.copy(toolAt);
      this.forceArrow.setDirection(force.clone().divideScalar(magnitude));
      this.forceArrow.setLength(length, Math.min(0.3 * length, 0.008), Math.min(0.15 * length, 0.004));
    }
    this.showContacts(state.contacts);
    if (this.hand.visible) {
      this.updateHandLine();
    }
    if (!this.fitted) {
      this.fit(toolAt);
    }
  }

  showContacts(contacts) {
    while (this.contactPoints.length < contacts.length) {
      // One geometry and material for every marker: a pile shows 450 of them.
      this.contactGeometry ??= new THREE.SphereGeometry(1, 8, 6);
      this.contactMaterial ??= new THREE.MeshBasicMaterial({ color: CONTACT_COLOUR });
      const point = new THREE.Mesh(this.contactGeometry, this.contactMaterial);
      const normal = new THREE.ArrowHelper(new THREE.Vector3(0, 0, 1), new THREE.Vector3(), NORMAL_ARROW_M, NORMAL_COLOUR);
      this.contactPoints.push(point);
      this.contactNormals.push(normal);
      this.contactLayer.add(point, normal);
    }
    for (let i = 0; i < this.contactPoints.length; i++) {
      const visible = i < contacts.length;
      this.contactPoints[i].visible = visible;
      this.contactNormals[i].visible = visible;
      if (visible) {
        const at = vec(contacts[i].pointM);
        this.contactPoints[i].position.copy(at);
        this.contactPoints[i].scale.setScalar(this.toolRadiusM * 0.3);
        this.contactNormals[i].position.copy(at);
        const n = vec(contacts[i].normal);
        if (n.lengthSq() > 0) {
          this.contactNormals[i].setDirection(n.normalize());
        }
      }
    }
  }

  /** Frames the bodies (planes excepted) and the tool once per scene, looking from the front, above, and the -y side. */
  fit(toolAt) {
    const box = new THREE.Box3().expandByPoint(toolAt);
    for (const holder of this.bodies.values()) {
      if (!holder.userData.plane) {
        box.expandByObject(holder);
      }
    }
    const centre = box.getCenter(new THREE.Vector3());
    const size = Math.max(0.06, box.getSize(new THREE.Vector3()).length());
    this.controls.target.copy(centre);
    // Clip planes that follow the scene's size: a bench scene is centimetres, source 001's string is 100 m.
    this.camera.near = Math.max(0.001, size * 1e-4);
    this.camera.far = Math.max(20, size * 10);
    this.camera.updateProjectionMatrix();
    this.camera.position.copy(centre).add(new THREE.Vector3(0.55, -1.0, 0.6).multiplyScalar(size * 1.1));
    this.camera.lookAt(centre);
    this.controls.update();
    this.fitted = true;
  }

  /** Shows where the page has put the virtual hand, with a line to the tool; null hides it. */
  showHand(point) {
    this.hand.visible = point !== null;
    this.handLine.visible = point !== null;
    if (point !== null) {
      this.hand.position.copy(point);
      this.updateHandLine();
    }
  }

  updateHandLine() {
    this.handLine.geometry.setFromPoints([this.hand.position, this.tool.position]);
  }

  /** Normalised device coordinates of a pointer event over the canvas. */
  ndcOf(event) {
    const rect = this.canvas.getBoundingClientRect();
    return new THREE.Vector2(((event.clientX - rect.left) / rect.width) * 2 - 1,
      -((event.clientY - rect.top) / rect.height) * 2 + 1);
  }

  /** Whether the pointer is on the tool (a pick sphere of twice its radius, so a 5 mm tool is easy to hit). */
  hitsTool(event) {
    const ray = new THREE.Raycaster();
    ray.setFromCamera(this.ndcOf(event), this.camera);
    const pick = new THREE.Sphere(this.tool.position, this.toolRadiusM * 2);
    return ray.ray.intersectsSphere(pick);
  }

  /** The plane through the tool facing the camera: where a drag moves the hand. */
  dragPlane() {
    const towardCamera = this.camera.getWorldDirection(new THREE.Vector3()).negate();
    return new THREE.Plane().setFromNormalAndCoplanarPoint(towardCamera, this.tool.position);
  }

  /** Where the pointer's ray meets `plane`, or null (ray parallel to it). */
  pointOnPlane(event, plane) {
    const ray = new THREE.Raycaster();
    ray.setFromCamera(this.ndcOf(event), this.camera);
    return ray.ray.intersectPlane(plane, new THREE.Vector3());
  }

  /** Viewport CSS pixel coordinates of a scene point, e.g. for a test's pointer actions. */
  screenOf(point) {
    const ndc = vec(point).project(this.camera);
    const rect = this.canvas.getBoundingClientRect();
    return { x: rect.left + ((ndc.x + 1) / 2) * rect.width, y: rect.top + ((1 - ndc.y) / 2) * rect.height };
  }

  /** Whether a scene point is inside the camera's view: on the canvas and between the clip planes. */
  inView(point) {
    const ndc = vec(point).project(this.camera);
    return Math.abs(ndc.x) <= 1 && Math.abs(ndc.y) <= 1 && ndc.z >= -1 && ndc.z <= 1;
  }

  get triangles() {
    return this.renderer.info.render.triangles;
  }
}
