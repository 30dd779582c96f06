package org.hapticsd.protocol.stream;

/** One entry of an EVENTS message: what happened, at which tick. Kind codes are in the spec's table. */
public sealed interface StreamEvent {
    /** Loop tick at which it happened, 0..2^63-1. */
    long tick();

    /** Kind code on the wire. */
    int code();

    /** Kind 1: two bodies (or a body and the tool, id {@link StreamProtocol#TOOL_ID}) started touching. */
    record ContactBegan(long tick, int bodyA, int bodyB) implements StreamEvent {
        public ContactBegan {
            Checks.u63("tick", tick);
            Checks.bodyOrTool("bodyA", bodyA);
            Checks.bodyOrTool("bodyB", bodyB);
        }

        @Override
        public int code() {
            return 1;
        }
    }

    /** Kind 2: they stopped touching. */
    record ContactEnded(long tick, int bodyA, int bodyB) implements StreamEvent {
        public ContactEnded {
            Checks.u63("tick", tick);
            Checks.bodyOrTool("bodyA", bodyA);
            Checks.bodyOrTool("bodyB", bodyB);
        }

        @Override
        public int code() {
            return 2;
        }
    }

    /** Kind 3: an impact, with the magnitude of the normal impulse exchanged, N·s. */
    record Impact(long tick, int bodyA, int bodyB, float impulseNewtonSeconds) implements StreamEvent {
        public Impact {
            Checks.u63("tick", tick);
            Checks.bodyOrTool("bodyA", bodyA);
            Checks.bodyOrTool("bodyB", bodyB);
        }

        @Override
        public int code() {
            return 3;
        }
    }

    /** Kind 4: the safety layer changed state; {@code fault} is the fault after the change. */
    record SafetyChanged(long tick, SafetyCode from, SafetyCode to, FaultCode fault) implements StreamEvent {
        public SafetyChanged {
            Checks.u63("tick", tick);
            Checks.notNull("from", from);
            Checks.notNull("to", to);
            Checks.notNull("fault", fault);
        }

        @Override
        public int code() {
            return 4;
        }
    }

    /** Kind 5: the device connected. */
    record DeviceConnected(long tick) implements StreamEvent {
        public DeviceConnected {
            Checks.u63("tick", tick);
        }

        @Override
        public int code() {
            return 5;
        }
    }

    /** Kind 6: the device disconnected. */
    record DeviceDisconnected(long tick) implements StreamEvent {
        public DeviceDisconnected {
            Checks.u63("tick", tick);
        }

        @Override
        public int code() {
            return 6;
        }
    }
    /**
     * Kind 7: the physics step started running over its budget (a share of the tick period) in more than 1 % of a
     * window's ticks; {@code stepP99Ns} is that window's 99th-percentile step time, {@code budgetNs} the budget.
     */
    record PhysicsOverBudget(long tick, long stepP99Ns, long budgetNs) implements StreamEvent {
        public PhysicsOverBudget {
            Checks.u63("tick", tick);
            Checks.u32("stepP99Ns", stepP99Ns);
            Checks.u32("budgetNs", budgetNs);
        }

        @Override
        public int code() {
            return 7;
        }
    }

    /** Kind 8: the physics step is back within its budget; the same details as kind 7. */
    record PhysicsWithinBudget(long tick, long stepP99Ns, long budgetNs) implements StreamEvent {
        public PhysicsWithinBudget {
            Checks.u63("tick", tick);
            Checks.u32("stepP99Ns", stepP99Ns);
            Checks.u32("budgetNs", budgetNs);
        }

        @Override
        public int code() {
            return 8;
        }
    }

    /**
     * Kind 9: the physics step dropped candidate pairs or contact points that its contact budget could not hold
     * (least important first), counted since the previous CONTACTS_DROPPED event up to and including {@code tick}.
     */
    record ContactsDropped(long tick, long droppedPairs, long droppedPoints) implements StreamEvent {
        public ContactsDropped {
            Checks.u63("tick", tick);
            Checks.u32("droppedPairs", droppedPairs);
            Checks.u32("droppedPoints", droppedPoints);
        }

        @Override
        public int code() {
            return 9;
        }
    }

    /**
     * Kind 10 (version 2): a collision played as source 000's impulse waveform began: an IMPULSE-mode collision
     * between two bodies, or the tool's impact transient on a strike (then one of the bodies is the tool and
     * {@code mode} is the tool pair's own mode, LCP or PENALTY, which the transient is played on top of). The
     * waveform's totals and shape: {@code impulseNewtonSeconds} the normal impulse it was sized for, IP_z (N·s),
     * {@code heightN} its height H = S_h·IP_z (N), {@code durationS} its duration W = S_w/IP_z + W_min (s),
     * {@code elasticity} the collision's coefficient of restitution e.
     */
    record ImpulseCollision(long tick, int bodyA, int bodyB, ContactModeCode mode, float impulseNewtonSeconds,
                            float heightN, float durationS, float elasticity) implements StreamEvent {
        public ImpulseCollision {
            Checks.u63("tick", tick);
            Checks.bodyOrTool("bodyA", bodyA);
            Checks.bodyOrTool("bodyB", bodyB);
            Checks.notNull("mode", mode);
        }

        @Override
        public int code() {
            return 10;
        }
    }
}
