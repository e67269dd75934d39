//! Exporting what the page shows: the engine's SVG of the compared
//! timelines (`engine::svg_export`, the same document `rebalance svg`
//! writes) as a file, or rasterised to PNG through an `<img>` and a canvas.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::js_sys::Array;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, HtmlImageElement, Url};

/// Canvas area Chromium and Firefox both allow (a big run's SVG is tall).
const MAX_CANVAS_PIXELS: f64 = 100_000_000.0;

fn blob(text: &str, mime: &str) -> Result<Blob, JsValue> {
    let parts = Array::of1(&JsValue::from_str(text));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    Blob::new_with_str_sequence_and_options(&parts, &options)
}

/// Offers `blob` as a downloaded file called `name`.
pub fn download_blob(name: &str, blob: &Blob) -> Result<(), JsValue> {
    let url = Url::create_object_url_with_blob(blob)?;
    let a: HtmlAnchorElement = gloo::utils::document()
        .create_element("a")?
        .dyn_into()
        .map_err(JsValue::from)?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    Url::revoke_object_url(&url)?;
    Ok(())
}

/// Offers an SVG document as `name`.
pub fn download_svg(name: &str, svg: &str) -> Result<(), JsValue> {
    download_blob(name, &blob(svg, "image/svg+xml")?)
}

/// The scale a PNG of `width` × `height` CSS pixels is drawn at: 2 for
/// sharp text on high-density screens, less when that would exceed what a
/// canvas may hold.
pub fn png_scale(width: f64, height: f64) -> f64 {
    let area = (width * height).max(1.0);
    (MAX_CANVAS_PIXELS / area).sqrt().min(2.0)
}

/// Rasterises an SVG document and offers it as the PNG `name`; `done` gets
/// whether it worked (it finishes after the image has loaded).
pub fn download_png(name: &str, svg: &str, done: impl FnOnce(bool) + 'static) {
    let done = std::rc::Rc::new(std::cell::RefCell::new(Some(done)));
    let finish = move |ok: bool| {
        if let Some(f) = done.borrow_mut().take() {
            f(ok);
        }
    };
    let started = (|| -> Result<(), JsValue> {
        let url = Url::create_object_url_with_blob(&blob(svg, "image/svg+xml")?)?;
        let img = HtmlImageElement::new()?;
        let name = name.to_string();
        let on_load = {
            let (img, url, finish) = (img.clone(), url.clone(), finish.clone());
            Closure::once_into_js(move || {
                let drawn = draw(&img, &name, finish.clone());
                let _ = Url::revoke_object_url(&url);
                if drawn.is_err() {
                    finish(false);
                }
            })
        };
        let on_error = {
            let (url, finish) = (url.clone(), finish.clone());
            Closure::once_into_js(move || {
                let _ = Url::revoke_object_url(&url);
                finish(false);
            })
        };
        img.set_onload(Some(on_load.unchecked_ref()));
        img.set_onerror(Some(on_error.unchecked_ref()));
        img.set_src(&url);
        Ok(())
    })();
    if started.is_err() {
        finish(false);
    }
}

fn draw(
    img: &HtmlImageElement,
    name: &str,
    finish: impl Fn(bool) + Clone + 'static,
) -> Result<(), JsValue> {
    let (w, h) = (
        f64::from(img.natural_width()),
        f64::from(img.natural_height()),
    );
    let scale = png_scale(w, h);
    let canvas: HtmlCanvasElement = gloo::utils::document()
        .create_element("canvas")?
        .dyn_into()
        .map_err(JsValue::from)?;
    canvas.set_width((w * scale).round() as u32);
    canvas.set_height((h * scale).round() as u32);
    let ctx: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")?
        .ok_or("no 2d canvas")?
        .dyn_into()
        .map_err(JsValue::from)?;
    ctx.scale(scale, scale)?;
    ctx.draw_image_with_html_image_element(img, 0.0, 0.0)?;
    let name = name.to_string();
    let on_blob = Closure::once_into_js(move |b: JsValue| {
        let ok = b
            .dyn_into::<Blob>()
            .ok()
            .is_some_and(|b| download_blob(&name, &b).is_ok());
        finish(ok);
    });
    canvas.to_blob_with_type(on_blob.unchecked_ref(), "image/png")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_scale_is_sharp_but_bounded() {
        assert_eq!(png_scale(1000.0, 600.0), 2.0);
        let s = png_scale(2000.0, 200_000.0);
        assert!(s < 1.0 && 2000.0 * 200_000.0 * s * s <= MAX_CANVAS_PIXELS * 1.0001);
    }
}
