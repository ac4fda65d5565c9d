// SPDX-License-Identifier: MIT
// The workload of the jit-hotspot recordings: for SECS seconds (args[0]),
// sort a shuffled int[] with java.util.Arrays.sort (DualPivotQuicksort) and
// scan a text with a java.util.regex.Pattern. The hot code is the JDK's own.
import java.util.Arrays;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class Hot {
	public static void main(String[] args) {
		long end = System.nanoTime() + (long) (Double.parseDouble(args.length > 0 ? args[0] : "2") * 1e9);
		Random rnd = new Random(42);
		int[] base = new int[20000];
		for (int i = 0; i < base.length; i++) base[i] = rnd.nextInt();
		StringBuilder sb = new StringBuilder();
		for (int i = 0; i < 2000; i++) sb.append("user").append(rnd.nextInt(1000)).append("@host").append(i % 7).append(".example.com, ");
		String text = sb.toString();
		Pattern p = Pattern.compile("([a-z]+)(\\d+)@([a-z]+\\d)\\.example\\.com");
		long sum = 0, rounds = 0, matches = 0;
		while (System.nanoTime() < end) {
			int[] a = base.clone();
			Arrays.sort(a);
			sum += a[rounds % a.length == 0 ? 0 : (int) (rounds % a.length)];
			Matcher m = p.matcher(text);
			while (m.find()) { matches++; sum += m.group(2).length(); }
			rounds++;
		}
		System.out.println("rounds " + rounds + " matches " + matches + " sum " + sum);
	}
}
