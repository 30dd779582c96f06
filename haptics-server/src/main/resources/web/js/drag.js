// Dragging the simulated stylus: press on the tool (or anywhere with Shift held) and drag. The pointer is projected
// onto the plane through the tool that faces the camera, and that scene point is sent as MOVE_HAND, at most
// SEND_HZ times a second; the server's virtual hand pulls the stylus there while the scene pushes back. Orbiting
// is off for the length of a drag.

const SEND_HZ = 60;

export class HandDrag {
  /**
   * @param view     the SceneView
   * @param surface  element whose pointer events start drags (the view's container)
   * @param sendHand (point: THREE.Vector3) => boolean, false when the command could not be sent
   * @param canStart () => boolean, false when no command can be sent (no token, not connected)
   */
  constructor(view, surface, sendHand, canStart) {
    this.view = view;
    this.surface = surface;
    this.sendHand = sendHand;
    this.canStart = canStart;
    this.active = false;
    this.pending = null;
    this.lastSentMs = -Infinity;
    this.timer = null;
    // Capture phase on the container: this runs before OrbitControls' own listener on the canvas inside it.
    surface.addEventListener('pointerdown', (e) => this.down(e), { capture: true });
    surface.addEventListener('pointermove', (e) => this.move(e));
    surface.addEventListener('pointerup', (e) => this.up(e));
    surface.addEventListener('pointercancel', (e) => this.up(e));
  }

  down(event) {
    if (event.button !== 0 || this.active) {
      return;
    }
    const onTool = this.view.hitsTool(event);
    if (!onTool && !event.shiftKey) {
      return;
    }
    event.stopPropagation();
    event.preventDefault();
    if (!this.canStart()) {
      return;
    }
    this.plane = this.view.dragPlane();
    const hit = this.view.pointOnPlane(event, this.plane);
    if (hit === null) {
      return;
    }
    // Grabbing the tool off-centre must not make the hand jump by the grab offset; with Shift the hand goes
    // exactly where the pointer is.
    this.offset = onTool ? hit.clone().sub(this.view.tool.position) : hit.clone().multiplyScalar(0);
    this.active = true;
    this.view.controls.enabled = false;
    this.surface.setPointerCapture(event.pointerId);
    this.target(event);
  }

  move(event) {
    if (this.active) {
      this.target(event);
    }
  }

  up(event) {
    if (!this.active) {
      return;
    }
    this.target(event);
    this.flush();
    this.active = false;
    this.view.controls.enabled = true;
    if (this.surface.hasPointerCapture(event.pointerId)) {
      this.surface.releasePointerCapture(event.pointerId);
    }
  }

  target(event) {
    const hit = this.view.pointOnPlane(event, this.plane);
    if (hit === null) {
      return;
    }
    this.pending = hit.sub(this.offset);
    this.view.showHand(this.pending);
    const dueMs = this.lastSentMs + 1000 / SEND_HZ;
    const nowMs = performance.now();
    if (nowMs >= dueMs) {
      this.flush();
    } else if (this.timer === null) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.flush();
      }, dueMs - nowMs);
    }
  }

  flush() {
    if (this.pending === null) {
      return;
    }
    this.sendHand(this.pending);
    this.pending = null;
    this.lastSentMs = performance.now();
  }
}
