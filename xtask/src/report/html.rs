//! The report's HTML page: its markdown rendered by a CommonMark parser (pulldown-cmark, with
//! tables), inside a small self-contained page.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd, html::push_html};

/// The page's head: title and style (tables, images, a row of gallery pictures).
const HEAD: &str = "<!doctype html><html><head><meta charset=\"utf-8\"><title>XPBD/XPBI report</title><style>body{font-family:sans-serif;max-width:1100px;margin:auto;padding:1em}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 6px;font-size:90%}img{max-width:100%;border:1px solid #eee}.row{display:flex;gap:4px}.row img{flex:1;min-width:0}code{background:#f4f4f4}</style></head><body>\n";

/// The report's markdown as a self-contained HTML page. CommonMark with tables; a paragraph of
/// images only is a figure (one image) or a row of pictures (several, `![a](x) ![b](y)`), each
/// image titled by its caption. The markdown is written by the report, not by hand: raw HTML
/// in it is shown as text.
pub fn html(md: &str) -> String {
    let events: Vec<Event> = Parser::new_ext(md, Options::ENABLE_TABLES)
        .map(|e| match e {
            Event::Html(s) | Event::InlineHtml(s) => Event::Text(s),
            Event::Start(Tag::HtmlBlock) => Event::Start(Tag::Paragraph),
            Event::End(TagEnd::HtmlBlock) => Event::End(TagEnd::Paragraph),
            e => e,
        })
        .collect();
    let mut page = String::from(HEAD);
    push_html(&mut page, figures(events).into_iter());
    page += "</body></html>\n";
    page
}

/// Rewrites every paragraph that holds images only (and the spaces between them) into a
/// `<figure>` (one image) or a `<div class="row">` (several), titling each image by its caption.
fn figures(mut events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    let mut k = 0;
    while k < events.len() {
        if !matches!(events[k], Event::Start(Tag::Paragraph)) {
            k += 1;
            continue;
        }
        let Some(len) = events[k..]
            .iter()
            .position(|e| matches!(e, Event::End(TagEnd::Paragraph)))
        else {
            break;
        };
        let end = k + len;
        if let Some(images) = images_only(&events[k + 1..end]) {
            let (open, close) = if images == 1 {
                ("<figure>", "</figure>\n")
            } else {
                ("<div class=\"row\">", "</div>\n")
            };
            events[k] = Event::Html(open.into());
            events[end] = Event::Html(close.into());
            title_images(&mut events[k + 1..end]);
        }
        k = end + 1;
    }
    events
}

/// The number of images of a paragraph's inline events if they are images and blanks only.
fn images_only(inline: &[Event<'_>]) -> Option<usize> {
    let (mut depth, mut images) = (0usize, 0usize);
    for e in inline {
        match e {
            Event::Start(Tag::Image { .. }) => {
                depth += 1;
                images += 1;
            }
            Event::End(TagEnd::Image) => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            Event::Text(t) if t.trim().is_empty() => {}
            Event::SoftBreak => {}
            _ => return None,
        }
    }
    (images > 0).then_some(images)
}

/// Sets the title of every untitled image to its caption (the text of its alt).
fn title_images(inline: &mut [Event<'_>]) {
    for k in 0..inline.len() {
        let Event::Start(Tag::Image { title, .. }) = &inline[k] else {
            continue;
        };
        if !title.is_empty() {
            continue;
        }
        let caption: String = inline[k + 1..]
            .iter()
            .take_while(|e| !matches!(e, Event::End(TagEnd::Image)))
            .filter_map(|e| match e {
                Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
                _ => None,
            })
            .collect();
        if let Event::Start(Tag::Image { title, .. }) = &mut inline[k] {
            *title = CowStr::from(caption);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::html;

    #[test]
    fn bold_tables_links_code_and_images_render() {
        let md = "# Report\n\nA **bold** claim, `code` and a [link](https://example.org).\n\n\
                  | a | b |\n|---|---|\n| 1 | **2** |\n\n![A caption](plot.svg)\n";
        let h = html(md);
        assert!(h.starts_with("<!doctype html>") && h.ends_with("</body></html>\n"));
        assert!(h.contains("<strong>bold</strong>"), "{h}");
        assert!(
            h.contains("<table>")
                && h.contains("<th>a</th>")
                && h.contains("<td><strong>2</strong></td>"),
            "{h}"
        );
        assert!(
            h.contains("<a href=\"https://example.org\">link</a>"),
            "{h}"
        );
        assert!(h.contains("<code>code</code>"), "{h}");
        assert!(
            h.contains(
                "<figure><img src=\"plot.svg\" alt=\"A caption\" title=\"A caption\" /></figure>"
            ),
            "{h}"
        );
        assert!(!h.contains("**"), "{h}");
    }

    #[test]
    fn a_line_of_images_is_a_row_and_raw_html_is_text() {
        let h = html("![t = 0 s](a.png) ![t = 1 s](b.png)\n\nstd < 0.15 and <b>not bold</b>\n");
        assert!(h.contains("<div class=\"row\"><img src=\"a.png\""), "{h}");
        assert_eq!(h.matches("<img").count(), 2, "{h}");
        assert!(
            h.contains("&lt;b&gt;not bold&lt;/b&gt;") && h.contains("std &lt; 0.15"),
            "{h}"
        );
    }
}
