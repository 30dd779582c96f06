package org.hapticsd.server.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.hapticsd.client.StreamClient;
import org.hapticsd.protocol.stream.AckMessage;
import org.hapticsd.protocol.stream.Command;
import org.hapticsd.server.ServerCommands;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code hapticsd send}: connects to a running server's stream, sends one COMMAND with the server's token and prints
 * its ACK (docs/stream-protocol.md, section 4.7): for a shell script that pauses the scene, loads another or changes a
 * parameter between the trials of an experiment.
 *
 * <p>Exit 0 when the server accepted the command (its ACK comes once the change is in force), 1 when it refused it
 * (the reason printed), or no ACK came, or the server could not be reached; 2 for misuse.
 */
@picocli.CommandLine.Command(name = "send", mixinStandardHelpOptions = true,
    description = "Send one command to a running hapticsd stream and print its ACK: pause, resume, reset-scene, "
        + "load-scene NAME, stop (emergency stop), reset-stop, set NAME VALUE (SET_PARAMETER), move-hand X Y Z "
        + "(docs/stream-protocol.md, 4.7); or list the parameters set takes now: parameters.")
final class SendCommand implements Callable<Integer> {

    @ParentCommand
    HapticsdCommand parent;

    @Option(names = "--url", paramLabel = "URL", defaultValue = WatchCommand.DEFAULT_URL,
        description = "The server's stream: ws://HOST:PORT/ws, wss://... or tcp://HOST:PORT. "
            + "Default: ${DEFAULT-VALUE}.")
    String url;

    @Option(names = "--token", paramLabel = "T", description = "The server's command token (run --token).")
    String token;

    @Option(names = "--timeout", paramLabel = "S", defaultValue = "5",
        description = "How long to wait for the connection, and then for the ACK, seconds. Default: ${DEFAULT-VALUE}.")
    double timeoutS;

    @Option(names = "--trust-cert", paramLabel = "PEM",
        description = "For wss:// (or tcp:// with --tls): trust the certificate(s) in this PEM file.")
    Path trustCert;

    @Option(names = "--tls", description = "For tcp://: connect over TLS.")
    boolean tls;

    @Option(names = "--json", description = "For parameters: print the server's JSON (/api/parameters) as it came.")
    boolean json;

    @Parameters(index = "0", paramLabel = "ACTION",
        description = "pause, resume, reset-scene, load-scene, stop, reset-stop, set, move-hand or parameters.")
    String action;

    @Parameters(index = "1..*", paramLabel = "ARG", description = "The action's arguments.")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() {
        LoopOptions.positiveSeconds("--timeout", timeoutS);
        Duration timeout = Duration.ofNanos((long) (timeoutS * 1e9));
        if (action.equals("parameters")) {
            arity(action, args, 0, "no arguments");
            return ParameterListing.print(url, trustCert, timeout, json, parent.out(), parent.err());
        }
        Command command = command(action, args);
        StreamClient.Builder builder = WatchCommand.builder(url, token, tls, trustCert).noReconnect()
            .connectTimeout(timeout).commandTimeout(timeout);
        try (StreamClient client = WatchCommand.build(builder)) {
            try {
                client.connect().get(timeout.toNanos() + 1_000_000_000L, TimeUnit.NANOSECONDS);
            } catch (ExecutionException | TimeoutException e) {
                return fail("could not connect to " + url + ": " + reason(e));
            }
            AckMessage ack;
            try {
                ack = client.send(command).get(timeout.toNanos() + 1_000_000_000L, TimeUnit.NANOSECONDS);
            } catch (ExecutionException | TimeoutException e) {
                return fail(describe(command) + ": no ACK from " + url + ": " + reason(e));
            }
            if (!ack.accepted()) {
                return fail(describe(command) + " refused: " + ack.reason());
            }
            parent.out().println(describe(command) + ": accepted");
            parent.out().flush();
            return Main.EXIT_OK;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted");
        }
    }

    private int fail(String message) {
        parent.err().println("hapticsd: send: " + message);
        parent.err().flush();
        return Main.EXIT_FAILURE;
    }

    private static String reason(Exception e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        return cause instanceof TimeoutException ? "timed out" : String.valueOf(cause.getMessage());
    }

    /** The command {@code action} with {@code args} names, or a {@link UsageException} saying what is wrong. */
    static Command command(String action, List<String> args) {
        return switch (action) {
            case "pause" -> none(action, args, new Command.Pause());
            case "resume" -> none(action, args, new Command.Resume());
            case "reset-scene" -> none(action, args, new Command.ResetScene());
            case "stop" -> none(action, args, new Command.EmergencyStop());
            case "reset-stop" -> none(action, args, new Command.ResetStop());
            case "load-scene" -> {
                arity(action, args, 1, "NAME (a scene of the server's --scene-dir)");
                yield new Command.LoadScene(args.get(0));
            }
            case "set" -> {
                arity(action, args, 2, "NAME VALUE");
                yield new Command.SetParameter(args.get(0), number(action, "VALUE", args.get(1)));
            }
            case "move-hand" -> {
                arity(action, args, 3, "X Y Z (metres, scene frame)");
                yield new Command.MoveHand(number(action, "X", args.get(0)), number(action, "Y", args.get(1)),
                    number(action, "Z", args.get(2)));
            }
            default -> throw new UsageException("unknown action '" + action + "': one of pause, resume, reset-scene, "
                + "load-scene NAME, stop, reset-stop, set NAME VALUE, move-hand X Y Z, parameters");
        };
    }

    private static Command none(String action, List<String> args, Command command) {
        arity(action, args, 0, "no arguments");
        return command;
    }

    static void arity(String action, List<String> args, int n, String takes) {
        if (args.size() != n) {
            throw new UsageException(action + " takes " + takes + ", got " + args.size() + " argument"
                + (args.size() == 1 ? "" : "s"));
        }
    }

    private static double number(String action, String what, String text) {
        try {
            double value = Double.parseDouble(text);
            if (Double.isFinite(value)) {
                return value;
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        throw new UsageException(action + ": " + what + " must be a finite number, got '" + text + "'");
    }

    /** The command as the output names it. */
    static String describe(Command command) {
        return ServerCommands.describe(command);
    }
}
