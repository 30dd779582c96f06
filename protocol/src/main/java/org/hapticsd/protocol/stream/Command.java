package org.hapticsd.protocol.stream;

/** What a COMMAND asks the server to do. Kind codes are in the spec's table. */
public sealed interface Command {
    /** Kind code on the wire. */
    int code();

    /** Kind 1: stop advancing the simulation (the device is held at zero force). */
    record Pause() implements Command {
        @Override
        public int code() {
            return 1;
        }
    }

    /** Kind 2: continue after PAUSE. */
    record Resume() implements Command {
        @Override
        public int code() {
            return 2;
        }
    }

    /** Kind 3: put every body back to its loaded pose; the server sends a new SCENE. */
    record ResetScene() implements Command {
        @Override
        public int code() {
            return 3;
        }
    }

    /** Kind 4: load a scene by name from the server's scene directory; the server sends a new SCENE. */
    record LoadScene(String sceneName) implements Command {
        public LoadScene {
            Checks.string("sceneName", sceneName);
        }

        @Override
        public int code() {
            return 4;
        }
    }

    /** Kind 5: emergency stop (safety state ESTOP, latched). */
    record EmergencyStop() implements Command {
        @Override
        public int code() {
            return 5;
        }
    }

    /** Kind 6: clear an emergency stop or latched fault; force comes back through the start-up gate. */
    record ResetStop() implements Command {
        @Override
        public int code() {
            return 6;
        }
    }

    /**
     * Kind 7: set a named parameter. The server accepts only names and ranges in its local configuration and
     * refuses the rest in the ACK. float64 because a parameter value is sent rarely and should reach the server's
     * limit check exactly as typed.
     */
    record SetParameter(String name, double value) implements Command {
        public SetParameter {
            Checks.string("parameter name", name);
        }

        @Override
        public int code() {
            return 7;
        }
    }

    /**
     * Kind 8: move the simulated stylus's virtual hand to a point of the scene (metres, scene frame), as a mouse drag
     * in the web view does. The hand then pulls the stylus there through its grip, so the user still feels the
     * scene push back. A server without a simulated device refuses it. float64 like SET_PARAMETER: a drag sends
     * tens of these a second, far from the STATE budget.
     */
    record MoveHand(double xM, double yM, double zM) implements Command {
        public MoveHand {
            if (!Double.isFinite(xM) || !Double.isFinite(yM) || !Double.isFinite(zM)) {
                throw new IllegalArgumentException("MOVE_HAND position must be finite, got "
                    + xM + ", " + yM + ", " + zM);
            }
        }

        @Override
        public int code() {
            return 8;
        }
    }
}
