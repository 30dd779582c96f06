package org.hapticsd.server.net;

import java.util.concurrent.CompletionStage;
import org.hapticsd.protocol.stream.Command;

/**
 * Carries out a client's COMMAND once {@link CommandGate} has checked its token. Implementations check the
 * command against the server's local limits and hand the work to the loop as loop commands; they never touch loop
 * state themselves.
 */
@FunctionalInterface
public interface CommandExecutor {
    /**
     * @return completes with null when the command was accepted (handed to the loop, which carries it out at its
     *     next tick), or with the reason it was refused, for people; never completes exceptionally
     */
    CompletionStage<String> execute(Command command);

    /**
     * The names SET_PARAMETER accepts now, with their values and limits, in a stable order; empty when it accepts
     * none. Any thread: it reads what the executor recorded, never loop state.
     */
    default ParameterTable parameters() {
        return ParameterTable.NONE;
    }

    /** The current scene's build warnings; any thread. */
    default SceneWarnings warnings() {
        return SceneWarnings.NONE;
    }

    /** The scenes LOAD_SCENE may load now; any thread (it reads the scene directory). */
    default SceneCatalog scenes() {
        return SceneCatalog.NONE;
    }
}
